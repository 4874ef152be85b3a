package fgrt

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// TestPrintedCornersRecomputeCoverage reads the partitions back from the
// text a reader sees (artifacts.FormatPartitions) and recomputes every
// rule's coverage from them, the product of its conditions' memberships
// averaged over the training rows: it must equal the coverage the rule
// prints. Integer-valued features put many rows on the minimum, where a
// corner rounded onto the data (4 digits print 0.9999 as "1.000") would
// drop their membership from 1 to 0.
func TestPrintedCornersRecomputeCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	n := 300
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		// magnitudes where the ε offset is below a 4-digit print
		X[i] = []float64{float64(rng.IntN(8)) + 1, 100 + float64(rng.IntN(50)), float64(rng.IntN(5)) * 0.25}
		y[i] = 0
		if X[i][0]+X[i][2]*4 > 6+rng.NormFloat64() {
			y[i] = 1
		}
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "a"}, {Name: "b"}, {Name: "c"}}, Classes: []string{"no", "yes"}}
	parts, err := fuzzy.FitPartitions(X, s.NominalMask(), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	m, err := FitTree(X, y, 2, parts, GrowConfig{MaxRules: 12, MinImprovement: 0.001, Patience: 3})
	if err != nil {
		t.Fatal(err)
	}
	d, err := m.Describe(s)
	if err != nil {
		t.Fatal(err)
	}
	rec := artifacts.NewModelRecord("k", 0, d, nil)
	text := artifacts.FormatPartitions(rec.NamedPartitions())
	corners := map[string]fuzzy.Trapezoid{}
	row := regexp.MustCompile(`^(\S+)\s+(\S+)\s+\(([^)]*)\)$`)
	for _, line := range strings.Split(text, "\n") {
		mm := row.FindStringSubmatch(line)
		if mm == nil {
			continue
		}
		var c [4]float64
		for i, f := range strings.Split(mm[3], ", ") {
			if c[i], err = strconv.ParseFloat(f, 64); err != nil {
				t.Fatalf("corner %q: %v", f, err)
			}
		}
		corners[mm[1]+" IS "+mm[2]] = fuzzy.Trapezoid{A: c[0], B: c[1], C: c[2], D: c[3]}
	}
	stats := regexp.MustCompile(`^IF (.*) THEN .*\[coverage ([0-9.]+),`)
	checked := 0
	for _, line := range learn.RuleLines(m.Rules(s)) {
		mm := stats.FindStringSubmatch(line)
		if mm == nil {
			t.Fatalf("rule %q", line)
		}
		var sum float64
		for _, x := range X {
			w := 1.0
			for _, cond := range strings.Split(mm[1], " AND ") {
				tr, ok := corners[cond]
				if !ok {
					t.Fatalf("condition %q has no printed partition:\n%s", cond, text)
				}
				w *= tr.Membership(x[int(cond[0]-'a')])
			}
			sum += w
		}
		if got := strconv.FormatFloat(sum/float64(n), 'f', 3, 64); got != mm[2] {
			t.Errorf("%s: recomputed from the printed corners %s\n%s", line, got, text)
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("only %d rules checked:\n%s", checked, m.Rules(s))
	}
}
