package datasets

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Summary is one row of the `fgrtbench datasets` table: the shape of a file
// as read, next to what the paper's table says, with notes where they
// differ.
type Summary struct {
	Name                string
	Instances, Features int
	Nominal, Classes    int
	MissingRows         int // rows with at least one missing input
	MissingCells        int
	Domain              string
	PaperInstances      int
	Notes               []string
}

// Summarize describes a dataset read from a file, using its registry entry
// for the paper's domain and instance count. Notes flag a row count that
// differs from the paper's table, rows with missing values (which every
// protocol drops under the default missing-value policy), and any mismatch with the registry's expected
// shape. info may be the zero Info for a dataset outside the registry.
func Summarize(d *Dataset, info Info) Summary {
	s := Summary{
		Name:           d.Name,
		Instances:      d.Rows(),
		Features:       len(d.Inputs),
		Classes:        len(d.Classes),
		Domain:         info.Domain,
		PaperInstances: info.PaperInstances,
	}
	for _, a := range d.Inputs {
		if a.Nominal() {
			s.Nominal++
		}
	}
	for _, row := range d.X {
		missing := 0
		for _, v := range row {
			if math.IsNaN(v) {
				missing++
			}
		}
		s.MissingCells += missing
		if missing > 0 {
			s.MissingRows++
		}
	}
	if info.PaperInstances > 0 && s.Instances != info.PaperInstances {
		s.Notes = append(s.Notes, fmt.Sprintf("file has %s rows, paper's table %s", thousands(s.Instances), thousands(info.PaperInstances)))
	}
	if s.MissingRows > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d rows with missing values (%d cells); every protocol drops them (missing-value policy drop, the default), leaving %d; impute keeps them under the clean and holdout protocols", s.MissingRows, s.MissingCells, s.Instances-s.MissingRows))
	}
	if info.Name != "" && info.Instances > 0 {
		if err := CheckShape(d, info); err != nil {
			s.Notes = append(s.Notes, "registry mismatch: "+err.Error())
		}
	}
	return s
}

// WriteSummaryTable writes the summaries as an aligned text table, one
// dataset per line; notes go in the last column, separated by "; ".
func WriteSummaryTable(w io.Writer, rows []Summary) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	// Right-aligned numbers; the text columns are padded by hand so that
	// they stay left-aligned in the AlignRight writer.
	nameW, domW := len("dataset"), len("domain")
	for _, r := range rows {
		nameW = max(nameW, len(r.Name))
		domW = max(domW, len(r.Domain))
	}
	left := func(s string, w int) string { return s + strings.Repeat(" ", w-len(s)) }
	fmt.Fprintf(tw, "%s\tinstances\tfeatures\tnominal\tclasses\tmissing rows\tmissing cells\t%s\tpaper instances\t  %s\n",
		left("dataset", nameW), left("domain", domW), "notes")
	for _, r := range rows {
		paper := "-"
		if r.PaperInstances > 0 {
			paper = thousands(r.PaperInstances)
		}
		notes := strings.Join(r.Notes, "; ")
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t  %s\n",
			left(r.Name, nameW), thousands(r.Instances), r.Features, r.Nominal, r.Classes,
			r.MissingRows, r.MissingCells, left(r.Domain, domW), paper, notes)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Every name cell has the same width, so the right-aligning writer puts
	// exactly its two blanks of padding in front of each line; those and the
	// notes column's padding on rows without notes are trimmed.
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line == "" {
			continue
		}
		if _, err := io.WriteString(w, strings.TrimRight(strings.TrimPrefix(line, "  "), " \n")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// thousands formats n with comma thousands separators (4597 -> "4,597").
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
