package plots

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestCDShowsCompetitors: the CD diagram ranks the tests' entries only,
// names a merged entry after all its labels and the baselines in its
// caption.
func TestCDShowsCompetitors(t *testing.T) {
	var recs []results.Record
	acc := map[string][]float64{"fgrt": {0.8, 0.7, 0.6}, "fgrt-fixed": {0.8, 0.7, 0.6}, "cart": {0.75, 0.72, 0.65}, "c45": {0.85, 0.69, 0.62}, "majority": {0.4, 0.3, 0.2}}
	for m, v := range acc {
		for j, d := range []string{"pima", "wine", "zoo"} {
			for f := 0; f < 5; f++ {
				recs = append(recs, results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
					Accuracy: v[j], BalancedAccuracy: v[j], RulebaseSize: 3, Key: m + d})
			}
		}
	}
	a, err := analysis.Compute(recs, analysis.Options{Samples: 500, Baselines: []string{"majority"}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := CDDataOf(a, "clean")
	if err != nil {
		t.Fatal(err)
	}
	caption := CDCaption("clean", d)
	if len(d.Methods) != 3 || !strings.Contains(caption, "for exactly the 3 methods") || !strings.Contains(caption, "Not ranked, being baselines: majority.") {
		t.Errorf("methods %v, caption %q", d.Methods, caption)
	}
	// Majority is last on every dataset: its reference line stands at
	// k + 1 = 4, where the axis then ends.
	if len(d.References) != 1 || d.References[0] != (CDReference{Name: "majority", Rank: 4}) || !strings.Contains(caption, "A dashed line marks where a baseline would stand") {
		t.Errorf("references %v, caption %q", d.References, caption)
	}
	if err := CDFigure(t.TempDir(), "cd", d, a.Presentation()); err != nil {
		t.Errorf("CDFigure with a reference line at k + 1: %v", err)
	}
	d.References[0].Rank = 4.5
	if err := CDFigure(t.TempDir(), "cd", d, a.Presentation()); err == nil || !strings.Contains(err.Error(), "reference rank 4.5 of majority is outside [1, 4]") {
		t.Errorf("a reference beyond k + 1: %v", err)
	}
	l := &cdLayout{d: d, pres: a.Presentation()}
	found := false
	for o := range d.Methods {
		if strings.HasPrefix(l.labelOf(o), "fgrt = fgrt-fixed (") {
			found = true
		}
	}
	if !found {
		t.Errorf("no merged label among %v (names %v)", d.Methods, d.Names)
	}
}
