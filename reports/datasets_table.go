package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/paper"
)

// DatasetInfo describes one dataset as the harness loaded it. Shape fields
// are negative (shown "—") when unknown, e.g. a user's file whose shape the
// registry does not record.
type DatasetInfo struct {
	Name      string
	Instances int // rows used
	FileRows  int // rows in the file
	Features  int
	Nominal   int // nominal input columns
	Classes   int
	Missing   int // rows with at least one missing value in the source file
	Domain    string
	// SHA256 is the normalised checksum; ClassCounts the rows per class
	// (empty when the manifest did not record them); MajorityRate their
	// largest share (NaN when unknown).
	SHA256       string
	ClassCounts  []int
	MajorityRate float64
	// Imputed is the number of missing cells the study imputed (0: none).
	Imputed int
	// Paper reports that the dataset is the paper's (its name and, where
	// recorded, its file: analysis.PaperDataset); only then is it compared
	// with the paper's figures.
	Paper bool
}

// datasetRows lists every dataset of the analysis, with the shapes the
// caller knows (by short name) filled in.
func datasetRows(a *analysis.Analysis, known []DatasetInfo) []DatasetInfo {
	byName := map[string]DatasetInfo{}
	for _, d := range known {
		byName[d.Name] = d
	}
	out := make([]DatasetInfo, 0, len(a.Study.Datasets))
	for _, d := range a.Study.Datasets {
		info, ok := byName[d.Name]
		if !ok {
			info = DatasetInfo{Name: d.Name, Instances: -1, FileRows: -1, Features: -1, Nominal: -1, Classes: -1, Missing: -1}
			if d.Rows > 0 {
				info.FileRows = d.Rows
			}
			if len(d.ClassCounts) > 0 {
				info.Classes = len(d.ClassCounts)
			}
			if d.Features > 0 {
				info.Features, info.Nominal, info.Missing = d.Features, d.NominalFeatures, d.MissingRows
			}
		}
		// The rows used, their class balance and majority rate are what
		// the manifest recorded of the run; without that record (results
		// made before it existed) only the caller's shape says.
		info.SHA256, info.ClassCounts, info.MajorityRate, info.Imputed = d.SHA256, d.ClassCounts, d.MajorityRate, d.CellsImputed
		info.Paper = a.PaperDataset(d.Name)
		if d.RowsUsed > 0 {
			info.Instances = d.RowsUsed
		}
		if len(d.ClassCountsUsed) > 0 {
			info.ClassCounts = d.ClassCountsUsed
		} else if info.Missing > 0 {
			// The file's balance is not that of the rows used.
			info.ClassCounts, info.MajorityRate = nil, math.NaN()
		}
		out = append(out, info)
	}
	return out
}

func intOrDash(v int) string {
	if v < 0 {
		return "—"
	}
	return strconv.Itoa(v)
}

// DatasetsTable lists the datasets of the study (in the order of rows),
// with their checksums, class balance and the paper's figures where the
// paper has the dataset.
func DatasetsTable(rows []DatasetInfo) Table {
	kinds := identityKindsOf(rows)
	var present, imputed []string
	var lines []datasetLine
	for _, r := range rows {
		if r.Imputed > 0 {
			imputed = append(imputed, fmt.Sprintf("%s (%d cells)", r.Name, r.Imputed))
		}
		l := datasetLine{DatasetInfo: r, differs: "not in the paper"}
		p, inPaper := paper.Dataset(r.Name)
		inPaper = inPaper && r.Paper
		if l.Domain == "" && inPaper {
			l.Domain = p.Domain
		}
		l.balance, l.majority, l.majorityCSV = classBalance(r)
		if inPaper {
			present = append(present, r.Name)
			l.differs = differencesFromPaper(r, p)
			l.paper = &p
		}
		lines = append(lines, l)
	}
	t := Table{Name: "datasets", Title: "Datasets"}
	declare(&t, datasetsColumns(kinds), lines)
	t.Notes = datasetsNotes(kinds, present, imputed)
	return t
}

// datasetLine is one dataset's row: its figures, as shown, and the
// paper's where the paper has the dataset (paper nil otherwise).
type datasetLine struct {
	DatasetInfo
	balance, majority, majorityCSV string
	differs                        string
	paper                          *paper.DatasetRow
}

// identityKinds says what the datasets of a table are: some of the
// paper's, some identified by their parsed content (a file of the
// user's own), some by a file checksum.
type identityKinds struct{ paper, content, checksum bool }

func identityKindsOf(rows []DatasetInfo) identityKinds {
	var k identityKinds
	for _, r := range rows {
		if _, ok := paper.Dataset(r.Name); ok && r.Paper {
			k.paper = true
		}
		if strings.HasPrefix(r.SHA256, contentPrefix) {
			k.content = true
		} else if r.SHA256 != "" {
			k.checksum = true
		}
	}
	return k
}

// datasetsColumns declares the datasets table. The paper's column is
// shown only for the paper's datasets: a study of the user's own files
// has no "Differs from paper" column. A table identity (content:…) is not
// a file checksum, so the column says identity where one is.
func datasetsColumns(k identityKinds) []Column[datasetLine] {
	idHeader := "SHA-256 (normalised)"
	if k.content {
		idHeader = "Identity"
	}
	type line = datasetLine
	count := func(header, csv string, of func(line) int) Column[line] {
		return Column[line]{Header: header, Align: 'r', Show: func(l line) Entry { return Entry{Text: intOrDash(of(l))} },
			CSV: csv, Write: func(l line) string { return intOrDash(of(l)) }}
	}
	paperFigure := func(csv string, of func(paper.DatasetRow) int) Column[line] {
		return Column[line]{CSV: csv, Write: func(l line) string {
			if l.paper == nil {
				return ""
			}
			return strconv.Itoa(of(*l.paper))
		}}
	}
	differs := Column[line]{Header: "Differs from paper", Show: func(l line) Entry { return Entry{Text: l.differs} },
		CSV: "differs", Write: func(l line) string { return l.differs }}
	if !k.paper {
		differs.Show = nil
	}
	rowsInFile := func(l line) int { return l.FileRows }
	return []Column[line]{
		{Header: "Dataset", Show: func(l line) Entry { return Entry{Text: l.Name} },
			CSV: "dataset", Write: func(l line) string { return l.Name }},
		// The CSV has the file's rows last, after the columns it had
		// before it was counted.
		{Header: "Rows in file", Align: 'r', Show: func(l line) Entry { return Entry{Text: intOrDash(rowsInFile(l))} }},
		count("Rows used", "instances", func(l line) int { return l.Instances }),
		count("Features", "features", func(l line) int { return l.Features }),
		count("Nominal", "nominal", func(l line) int { return l.Nominal }),
		count("Classes", "classes", func(l line) int { return l.Classes }),
		{Header: "Class balance", Show: func(l line) Entry { return Entry{Text: l.balance} },
			CSV: "class_counts", Write: func(l line) string { return strings.ReplaceAll(l.balance, "—", "") }},
		{Header: "Majority (%)", Align: 'r', Show: func(l line) Entry { return Entry{Text: l.majority} },
			CSV: "majority_rate", Write: func(l line) string { return l.majorityCSV }},
		count("Missing rows", "missing_rows", func(l line) int { return l.Missing }),
		{Header: idHeader, Show: func(l line) Entry { return Entry{Text: shortIdentity(l.SHA256)} },
			CSV: "normalized_sha256", Write: func(l line) string { return l.SHA256 }},
		{CSV: "domain", Write: func(l line) string { return l.Domain }},
		paperFigure("paper_instances", func(p paper.DatasetRow) int { return p.Instances }),
		paperFigure("paper_features", func(p paper.DatasetRow) int { return p.Features }),
		paperFigure("paper_classes", func(p paper.DatasetRow) int { return p.Classes }),
		differs,
		{CSV: "rows_in_file", Write: func(l line) string { return intOrDash(rowsInFile(l)) }},
	}
}

// classBalance shows the rows per class ("—" when unknown) and the
// majority rate, as shown and for CSV.
func classBalance(r DatasetInfo) (balance, majority, majorityCSV string) {
	balance, majority = "—", "—"
	if len(r.ClassCounts) > 0 {
		parts := make([]string, len(r.ClassCounts))
		for i, c := range r.ClassCounts {
			parts[i] = strconv.Itoa(c)
		}
		balance = strings.Join(parts, ":")
	}
	if !math.IsNaN(r.MajorityRate) && r.MajorityRate > 0 {
		majority, majorityCSV = pct(r.MajorityRate), csvNum(r.MajorityRate)
	}
	return balance, majority, majorityCSV
}

// differencesFromPaper names the shape figures of a paper dataset that
// differ from the paper's ("no" when none does; unknown ones are not
// compared).
func differencesFromPaper(r DatasetInfo, p paper.DatasetRow) string {
	var diffs []string
	if r.FileRows >= 0 && p.Instances != r.FileRows {
		diffs = append(diffs, fmt.Sprintf("instances (paper %d)", p.Instances))
	}
	if r.Features >= 0 && p.Features != r.Features {
		diffs = append(diffs, fmt.Sprintf("features (paper %d)", p.Features))
	}
	if r.Classes >= 0 && p.Classes != r.Classes {
		diffs = append(diffs, fmt.Sprintf("classes (paper %d)", p.Classes))
	}
	if len(diffs) == 0 {
		return "no"
	}
	return strings.Join(diffs, ", ")
}

// datasetsNotes explains the rows used and the identity column, the
// paper's rows of its datasets present, and the imputed cells.
func datasetsNotes(k identityKinds, present, imputed []string) []string {
	identity := "The checksum is the normalised SHA-256 of the file (manifest.json has it in full)."
	switch {
	case k.content && k.checksum:
		identity = "The identity is the SHA-256 of the table as parsed (content:…) for a file of your own, and the normalised SHA-256 of the file for the paper's KEEL datasets (docs/data.md, Identity of a dataset); manifest.json has it in full."
	case k.content:
		identity = "The identity is the SHA-256 of the table as parsed (content:…; docs/data.md, Identity of a dataset); manifest.json has it in full."
	}
	notes := []string{
		"Rows used are the rows the protocols evaluated on: the rows in the file less those with a missing input, which every protocol drops under the default missing-value policy (drop; missing rows counts them in the file) and keeps under impute. Class balance gives the rows used per class in the dataset's class order, and the majority rate the accuracy of always predicting the most frequent class on the rows used (— where the manifest did not record class counts). " + identity,
	}
	if note := paperRowsNote(present); note != "" {
		notes = append(notes, note)
	}
	if len(imputed) > 0 {
		notes = append(notes, "Missing cells imputed (missing-value policy impute): "+strings.Join(imputed, ", ")+"; each took the mean (numeric) or most frequent value (nominal) of the training rows of its fold.")
	}
	return notes
}

// contentPrefix marks a dataset identity that is the table's content
// (a file of the user's own), not a normalised file checksum.
const contentPrefix = "content:"

// shortIdentity abbreviates an identity for the table, keeping its kind:
// 12 hex digits of a checksum, or "content:" and 12 of a table identity
// (never "content:87aa…", which hides most of what tells two apart).
func shortIdentity(id string) string {
	if id == "" {
		return "—"
	}
	prefix, hex := "", id
	if strings.HasPrefix(id, contentPrefix) {
		prefix, hex = contentPrefix, id[len(contentPrefix):]
	}
	if len(hex) <= 12 {
		return id
	}
	return prefix + hex[:12] + "…"
}

// paperRowsNote says where the paper's rows differ from the file's, for
// the datasets of the study that have such a difference (hepatitis and
// dermatology: complete rows only; spambase: 4,597 rows against the
// paper's 4,601); "" when the study has none of them.
func paperRowsNote(present []string) string {
	has := map[string]bool{}
	for _, n := range present {
		has[n] = true
	}
	var parts []string
	switch {
	case has["hepatitis"] && has["dermatology"]:
		parts = append(parts, "the authors' results for hepatitis and dermatology come from their complete rows only (80 and 358)")
	case has["hepatitis"]:
		parts = append(parts, "the authors' results for hepatitis come from its complete rows only (80)")
	case has["dermatology"]:
		parts = append(parts, "the authors' results for dermatology come from its complete rows only (358)")
	}
	if has["spambase"] {
		parts = append(parts, "the KEEL spambase file has 4,597 rows where the paper lists 4,601")
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}
