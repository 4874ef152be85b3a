package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/results"
)

// PaperDataset reports whether a dataset of the study is one of the
// paper's ten: its name is, and its file is the registry's (the same
// normalised checksum) wherever the manifest recorded one. A user's file
// that happens to be called wine.csv is not the paper's wine, and nothing
// of it is compared with the paper's numbers.
func (a *Analysis) PaperDataset(name string) bool {
	if !slices.Contains(paper.Datasets, name) {
		return false
	}
	for _, d := range a.Study.Datasets {
		if d.Name == name && d.SHA256 != "" {
			info, err := datasets.Lookup(name)
			return err == nil && info.NormalizedSHA256 == d.SHA256
		}
	}
	return true
}

// PaperCells returns the cells of datasets that are the paper's: the only
// cells a comparison with the paper's numbers may take.
func (a *Analysis) PaperCells() []Cell {
	var out []Cell
	for _, c := range a.Cells {
		if a.PaperDataset(c.Dataset) {
			out = append(out, c)
		}
	}
	return out
}

// HasPaperDatasets reports whether any dataset of the study is the paper's.
func (a *Analysis) HasPaperDatasets() bool {
	for _, d := range a.Study.Datasets {
		if a.PaperDataset(d.Name) {
			return true
		}
	}
	return false
}

// studyTitle names the study: the spec's name; for the built-in paper
// study (reproduce), the paper's title while its datasets are the paper's,
// and otherwise the datasets it ran on, so that a study of a user's own
// data is never framed as the paper's.
func studyTitle(a *Analysis, name, command string) (studyName, title string) {
	reproduce := strings.Contains(" "+command+" ", " reproduce ")
	if name != "paper" && !(name == "" && reproduce) {
		return name, titleOf(name, command)
	}
	var own []string
	for _, d := range a.Study.Datasets {
		if !a.PaperDataset(d.Name) {
			own = append(own, d.Name)
		}
	}
	if len(own) == 0 {
		return name, titleOf(name, command)
	}
	on := strings.Join(own, ", ")
	if len(own) > 3 {
		on = fmt.Sprintf("%d datasets", len(own))
	}
	if n := len(a.Study.Datasets) - len(own); n > 0 {
		on += fmt.Sprintf(" and %d of the paper's", n)
	}
	return "reproduce on " + on, "Study of " + on + ": the paper's methods and protocols (fgrtbench reproduce)"
}

// PaperComparison is a result against the paper's printed value for it:
// the paper's column and value (percent), ours minus the paper's
// (percentage points), and how the comparison is qualified (Note, "" when
// plain).
type PaperComparison struct {
	Column, Note  string
	Paper, DiffPP float64
}

// paperComparable says whether the paper has values comparable with a
// method's under a protocol: the same method (no grid variant) under the
// protocol the paper's numbers came from — the paper protocol's 5-fold
// cross-validation, except FGA's column, which was counted on the
// hold-out split.
func paperComparable(protocol, method string) (col, note string, ok bool) {
	if _, variant := results.SplitVariant(method); variant != "" {
		return "", "", false
	}
	col, ok = PaperColumn(method)
	if !ok {
		return "", "", false
	}
	switch {
	case protocol == "paper" && paper.HoldoutColumn(col):
		note = "the paper's FGA value is one hold-out, not a cross-validation mean: the holdout protocol's seed table places it among our seeds"
	case protocol == "paper":
	case protocol == "holdout" && paper.HoldoutColumn(col):
	default:
		return "", "", false
	}
	return col, note, true
}

// PaperComparisonOf compares a cell of one of the paper's datasets with
// the paper's printed value, where the paper has a comparable one.
func (a *Analysis) PaperComparisonOf(c Cell) (PaperComparison, bool) {
	col, note, ok := paperComparable(c.Protocol, c.Method)
	if !ok || !a.PaperDataset(c.Dataset) {
		return PaperComparison{}, false
	}
	v, ok := paper.Accuracy(c.Dataset, col)
	if !ok {
		return PaperComparison{}, false
	}
	return PaperComparison{Column: col, Note: note, Paper: v, DiffPP: float64(c.Accuracy*100) - v}, true
}

// PaperMeanComparisonOf compares a method's mean accuracy over the
// paper's ten datasets (ours, percent: the means table's
// paper_datasets_accuracy) with the paper's mean of its column, where the
// paper has comparable values and the method has all ten datasets.
func (a *Analysis) PaperMeanComparisonOf(protocol, method string) (ours float64, cmp PaperComparison, ok bool) {
	col, _, ok := paperComparable(protocol, method)
	if !ok {
		return 0, PaperComparison{}, false
	}
	if _, ok := paper.Accuracy(paper.Datasets[0], col); !ok {
		return 0, PaperComparison{}, false
	}
	pm, ok := paper.AccuracyMean(col)
	mm, have := a.MeanOf(protocol, method)
	if !ok || !have || mm.PaperAccuracy == nil {
		return 0, PaperComparison{}, false
	}
	ours = float64(*mm.PaperAccuracy * 100)
	return ours, PaperComparison{Column: col, Note: "the paper's ten datasets", Paper: pm, DiffPP: ours - pm}, true
}
