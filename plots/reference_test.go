package plots

import (
	"math"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/results"
)

// The authors' 800 ablation rows, grouped the paper's way, must give the
// group sizes and means of docs/protocols.md#ablation-figures.
func TestPooledAblationMatchesAuthorsTable(t *testing.T) {
	rows := sharedtest.ReadCSV(t, "reference/authors-results/fuzzy_cart_ablation_all_configs.csv")
	norm := func(s string) string {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("value %q: %v", s, err)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	var recs []results.Record
	for _, r := range rows[1:] {
		acc, err := strconv.ParseFloat(r[5], 64)
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(r[6])
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, results.Record{Protocol: "paper", Dataset: r[0], Method: "fgrt", Selection: "test",
			Config:   "coverage_threshold=" + norm(r[2]) + ";max_rules=" + norm(r[1]) + ";min_improvement=" + norm(r[3]),
			Accuracy: acc, Rules: n})
	}
	groups, err := analysis.PooledAblation(recs, "fgrt", "paper")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		param, value string
		rows         int
		mean         float64
	}{
		{"max_rules", "5", 50, 0.7036}, {"max_rules", "10", 100, 0.7371}, {"max_rules", "15", 450, 0.7522},
		{"max_rules", "20", 100, 0.7560}, {"max_rules", "25", 50, 0.7591}, {"max_rules", "30", 50, 0.7465},
		{"coverage_threshold", "0", 50, 0.7529}, {"coverage_threshold", "0.01", 500, 0.7466}, {"coverage_threshold", "0.03", 100, 0.7536},
		{"coverage_threshold", "0.05", 100, 0.7460}, {"coverage_threshold", "0.1", 50, 0.7467},
		{"min_improvement", "0", 50, 0.7529}, {"min_improvement", "0.005", 150, 0.7502}, {"min_improvement", "0.01", 500, 0.7456},
		{"min_improvement", "0.02", 50, 0.7529}, {"min_improvement", "0.05", 50, 0.7529},
	}
	if len(groups) != len(want) {
		t.Errorf("%d groups, want %d", len(groups), len(want))
	}
	for _, w := range want {
		g, ok := findGroup(groups, w.param, w.value)
		if !ok {
			t.Errorf("no group %s=%s", w.param, w.value)
			continue
		}
		if g.Rows != w.rows || math.Abs(g.AccMean-w.mean) > 5e-5 {
			t.Errorf("%s=%s: %d rows, mean %.5f; want %d rows, mean %.4f", w.param, w.value, g.Rows, g.AccMean, w.rows, w.mean)
		}
	}
}
