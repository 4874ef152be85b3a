package reporting

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestPaperTablesForThePage: the page of the paper's study gets the
// report's paper tables (printed values with causes, the check against
// the authors' means, complexity, partition) with the very cells the
// report rendered; a study of one's own gets none.
func TestPaperTablesForThePage(t *testing.T) {
	var recs []results.Record
	for _, ds := range []string{"wine", "zoo"} {
		for _, m := range []string{"fgrt", "fgrt-opt", "c45"} {
			acc := 0.5
			if r, ok := paper.Authors(ds, m); ok {
				acc = r.Accuracy
			}
			recs = append(recs, results.Record{Protocol: "paper", Dataset: ds, Method: m, Selection: "fixed", Selected: true,
				Seed: 42, NTrain: 80, NTest: 20, Accuracy: acc, BalancedAccuracy: acc, Rules: 3, Leaves: 3, Key: "paper/" + ds + "/" + m})
		}
	}
	for _, c := range []struct {
		study string
		want  []string
	}{
		{"paper", []string{"paper-paper", "paper-check", "complexity-paper", "partition-paper"}},
		{"mine", nil},
	} {
		a, err := analysis.Compute(recs, analysis.Options{Name: c.study, Samples: 2000})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := reports.Build(reports.Options{Dir: t.TempDir(), Analysis: a})
		if err != nil {
			t.Fatal(err)
		}
		got := paperTables(rep)
		var names []string
		for _, ht := range got {
			names = append(names, ht.Name)
		}
		if strings.Join(names, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: the page gets %v, want %v", c.study, names, c.want)
		}
		for _, ht := range got {
			for _, rt := range rep.Tables {
				if rt.Name != ht.Name {
					continue
				}
				if len(rt.Rows) != len(ht.Rows) || ht.Title != rt.Title || ht.Summary != rt.Summary {
					t.Errorf("%s: the page's %s is not the report's", c.study, ht.Name)
					continue
				}
				for i := range rt.Rows {
					for j, e := range rt.Rows[i] {
						if hc := ht.Rows[i][j]; hc.Text != e.Text || hc.Sub != e.Sub || hc.Bold != e.Bold {
							t.Errorf("%s: %s row %d column %d: page %+v, report %+v", c.study, ht.Name, i, j, hc, e)
						}
					}
				}
			}
		}
	}
}
