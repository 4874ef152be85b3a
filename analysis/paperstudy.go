package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/paper"
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
