package c45

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

var statsOf = regexp.MustCompile(`  \[coverage ([0-9.]+), confidence ([0-9.]+)\]$`)

// TestReadableRulesStats: every readable rule carries its leaf's coverage
// and confidence; the coverages of the leaves add up to the whole training
// weight (to the printed precision), and a leaf's confidence is at least
// 1/classes (it predicts its majority).
func TestReadableRulesStats(t *testing.T) {
	for _, d := range learntest.Problems() {
		tr, err := Spec.New(Spec.Defaults(), 1)
		if err != nil {
			t.Fatal(err)
		}
		m, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		lines := learn.RuleLines(m.(learn.ReadableRuler).ReadableRules(d.Schema, nil))
		var sum float64
		for _, l := range lines {
			g := statsOf.FindStringSubmatch(l)
			if g == nil {
				t.Fatalf("%s: rule %q has no coverage and confidence", d.Name, l)
			}
			cov, _ := strconv.ParseFloat(g[1], 64)
			conf, _ := strconv.ParseFloat(g[2], 64)
			sum += cov
			if cov > 0 && conf < 1/float64(d.Schema.NumClasses())-0.0005 {
				t.Errorf("%s: rule %q: confidence below 1/%d", d.Name, l, d.Schema.NumClasses())
			}
		}
		if math.Abs(sum-1) > 0.0005*float64(len(lines))+1e-9 {
			t.Errorf("%s: coverages add up to %.4f over %d rules", d.Name, sum, len(lines))
		}
	}
}
