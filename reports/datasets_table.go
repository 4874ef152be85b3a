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
	t := datasetsTableHead(kinds)
	var present, imputed []string
	for _, r := range rows {
		if r.Imputed > 0 {
			imputed = append(imputed, fmt.Sprintf("%s (%d cells)", r.Name, r.Imputed))
		}
		p, inPaper := paper.Dataset(r.Name)
		inPaper = inPaper && r.Paper
		domain := r.Domain
		if domain == "" && inPaper {
			domain = p.Domain
		}
		balance, majority, majorityCSV := classBalance(r)
		differs := "not in the paper"
		pI, pF, pC := "", "", ""
		if inPaper {
			present = append(present, r.Name)
			differs = differencesFromPaper(r, p)
			pI, pF, pC = strconv.Itoa(p.Instances), strconv.Itoa(p.Features), strconv.Itoa(p.Classes)
		}
		row := []Entry{{Text: r.Name}, {Text: intOrDash(r.FileRows)}, {Text: intOrDash(r.Instances)}, {Text: intOrDash(r.Features)}, {Text: intOrDash(r.Nominal)},
			{Text: intOrDash(r.Classes)}, {Text: balance}, {Text: majority}, {Text: intOrDash(r.Missing)}, {Text: shortIdentity(r.SHA256)}}
		if kinds.paper {
			row = append(row, Entry{Text: differs})
		}
		t.Rows = append(t.Rows, row)
		t.CSVRows = append(t.CSVRows, []string{r.Name, intOrDash(r.Instances), intOrDash(r.Features), intOrDash(r.Nominal), intOrDash(r.Classes),
			strings.ReplaceAll(balance, "—", ""), majorityCSV, intOrDash(r.Missing), r.SHA256, domain, pI, pF, pC, differs, intOrDash(r.FileRows)})
	}
	t.Notes = datasetsNotes(kinds, present, imputed)
	return t
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

// datasetsTableHead is the datasets table without rows. The paper's
// column applies only to the paper's datasets: a study of the user's own
// files has no "Differs from paper" column. A table identity (content:…)
// is not a file checksum, so the column says identity where one is.
func datasetsTableHead(k identityKinds) Table {
	idHeader := "SHA-256 (normalised)"
	if k.content {
		idHeader = "Identity"
	}
	t := Table{
		Name:      "datasets",
		Title:     "Datasets",
		Header:    []string{"Dataset", "Rows in file", "Rows used", "Features", "Nominal", "Classes", "Class balance", "Majority (%)", "Missing rows", idHeader},
		Align:     "lrrrrrlrrl",
		CSVHeader: []string{"dataset", "instances", "features", "nominal", "classes", "class_counts", "majority_rate", "missing_rows", "normalized_sha256", "domain", "paper_instances", "paper_features", "paper_classes", "differs", "rows_in_file"},
	}
	if k.paper {
		t.Header = append(t.Header, "Differs from paper")
		t.Align += "l"
	}
	return t
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
