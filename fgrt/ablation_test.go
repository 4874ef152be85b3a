package fgrt

import (
	"math"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/learn"
)

// paperConfigs are the 16 configurations of the authors' driver in list
// order (docs/protocols.md#fgrt-grid-and-test-fold-selection): max_rules, coverage, min_improvement.
var paperConfigs = [16][3]float64{
	{5, 0.01, 0.01}, {10, 0.01, 0.01}, {15, 0.01, 0.01}, {20, 0.01, 0.01}, {30, 0.01, 0.01},
	{15, 0, 0.01}, {15, 0.03, 0.01}, {15, 0.05, 0.01}, {15, 0.10, 0.01},
	{15, 0.01, 0}, {15, 0.01, 0.005}, {15, 0.01, 0.02}, {15, 0.01, 0.05},
	{20, 0.03, 0.01}, {10, 0.05, 0.005}, {25, 0.01, 0.005},
}

type ablationRow struct {
	acc              float64
	leaves, internal int
}

func readAblation(t *testing.T, dataset string) []ablationRow {
	t.Helper()
	recs := sharedtest.ReadCSV(t, "reference/authors-results/fuzzy_cart_ablation_all_configs.csv")
	var rows []ablationRow
	for _, r := range recs[1:] {
		if r[0] != dataset {
			continue
		}
		acc, _ := strconv.ParseFloat(r[5], 64)
		l, _ := strconv.Atoi(r[6])
		in, _ := strconv.Atoi(r[8])
		rows = append(rows, ablationRow{acc, l, in})
	}
	return rows
}

func schemaFor(d, c int) learn.Schema {
	s := learn.Schema{Features: make([]learn.Feature, d), Classes: make([]string, c)}
	return s
}

// bestOf16 runs the driver's per-fold selection (first configuration with
// the maximal test accuracy) and returns the per-fold rows of all configs
// and the mean of the selected accuracies.
func runPaperGrid(t *testing.T, X [][]float64, y, fold []int, nClasses int, optimize bool) ([]ablationRow, float64) {
	t.Helper()
	s := schemaFor(len(X[0]), nClasses)
	var rows []ablationRow
	mean := 0.0
	base := DefaultConfig()
	base.Optimize = optimize
	base.Strategy = partopt.Grid
	tr, err := New(base)
	if err != nil {
		t.Fatal(err)
	}
	prepared, err := tr.Prepare(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	parts := prepared.(*Trainer).PreparedPartitions()
	if want := 217 * len(X[0]); optimize && prepared.(*Trainer).PreparedEvaluations() != want {
		t.Errorf("FGRT* evaluations %d, want %d", prepared.(*Trainer).PreparedEvaluations(), want)
	}
	for k := 0; k < 5; k++ {
		Xtr, ytr, Xte, yte, _ := splitFold(X, y, fold, k)
		best := 0.0
		for _, c := range paperConfigs {
			o := base
			o.MaxRules, o.CoverageThreshold, o.MinImprovement = int(c[0]), c[1], c[2]
			m, err := FitTree(Xtr, ytr, nClasses, parts, o.GrowConfig)
			if err != nil {
				t.Fatal(err)
			}
			acc := learn.Accuracy(yte, m.Predict(Xte))
			rows = append(rows, ablationRow{acc, m.Leaves(), m.InternalNodes()})
			if acc > best {
				best = acc
			}
		}
		mean += best / 5
	}
	return rows, mean
}

func TestGoldenAblation(t *testing.T) {
	cases := []struct {
		dataset     string
		classes     int
		fgrt, fgrtS float64 // committed best-of-16 means (fuzzy_cart_results.csv)
	}{
		{"wine", 3, 0.9441269841269841, 0.9661904761904762},
		{"appendicitis", 2, 0.8021645021645021, 0.8116883116883118},
	}
	for _, c := range cases {
		t.Run(c.dataset, func(t *testing.T) {
			g := readGoldenCSV(t, "reference/golden/"+c.dataset+"_folds.csv")
			X, y, fold := g.matrix()
			want := readAblation(t, c.dataset)
			if len(want) != 80 {
				t.Fatalf("%d ablation rows for %s, want 80", len(want), c.dataset)
			}
			got, mean := runPaperGrid(t, X, y, fold, c.classes, false)
			ok := 0
			for i := range want {
				if math.Abs(got[i].acc-want[i].acc) <= 1e-6 && got[i].leaves == want[i].leaves && got[i].internal == want[i].internal {
					ok++
				} else {
					t.Errorf("row %d (fold %d config %d): got %+v want %+v", i, i/16, i%16, got[i], want[i])
				}
			}
			t.Logf("%s: %d/80 ablation rows equal; FGRT best-of-16 mean %.6f (committed %.6f)", c.dataset, ok, mean, c.fgrt)
			if math.Abs(mean-c.fgrt) > 1e-6 {
				t.Errorf("FGRT best-of-16 mean %.9f, want %.9f", mean, c.fgrt)
			}
			_, meanS := runPaperGrid(t, X, y, fold, c.classes, true)
			t.Logf("%s: FGRT* best-of-16 mean %.6f (committed %.6f)", c.dataset, meanS, c.fgrtS)
			if math.Abs(meanS-c.fgrtS) > 1e-6 {
				t.Errorf("FGRT* best-of-16 mean %.9f, want %.9f", meanS, c.fgrtS)
			}
		})
	}
}
