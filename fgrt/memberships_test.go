package fgrt

import (
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// withEncodedMemberships runs f with every fit using the encoded
// membership store, whatever the data size.
func withEncodedMemberships(f func()) {
	saved := denseLimit
	denseLimit = -1
	defer func() { denseLimit = saved }()
	f()
}

// randomGrowth is one random case of the tests that grow a tree two ways:
// data of trial's seed (its last column nominal every fifth trial),
// quantile or paper-style partitions (optimised every third trial) and
// random growth settings.
func randomGrowth(t *testing.T, r *rand.Rand, trial int) (X [][]float64, y []int, c int, parts []fuzzy.Partition, opt GrowConfig) {
	t.Helper()
	n, d := 30+r.IntN(500), 2+r.IntN(8)
	c = 2 + r.IntN(3)
	X, y = randomData(uint64(trial), n, d, c)
	nominal := make([]bool, d)
	if trial%5 == 4 {
		nominal[d-1] = true // column d-1 holds four integer codes when d%3 == 0
		for i := range X {
			X[i][d-1] = float64(int(X[i][d-1]*10) % 4)
		}
	}
	style := []fuzzy.Style{fuzzy.QuantileStyle, fuzzy.PaperStyle}[trial%2]
	parts, err := fuzzy.FitPartitions(X, nominal, style)
	if err != nil {
		t.Fatal(err)
	}
	if trial%3 == 2 {
		if parts, _, err = partopt.Optimize(X, y, parts, partopt.Config{}); err != nil {
			t.Fatal(err)
		}
	}
	opt = GrowConfig{
		MaxRules:          1 + r.IntN(30),
		CoverageThreshold: []float64{0, 0.01, 0.05, 0.1}[r.IntN(4)],
		MinImprovement:    []float64{0, 0.005, 0.01}[r.IntN(3)],
		Patience:          1 + r.IntN(4),
		FixQ1:             r.IntN(2) == 0,
	}
	return X, y, c, parts, opt
}

// TestEncodedMembershipsMatchDense grows the same trees from the encoded
// membership store as from the dense one, on quantile, paper-style and
// optimised partitions, nominal columns and random growth settings.
func TestEncodedMembershipsMatchDense(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 16))
	for trial := 0; trial < 40; trial++ {
		X, y, c, parts, opt := randomGrowth(t, r, trial)
		dense, err := FitTree(X, y, c, parts, opt)
		if err != nil {
			t.Fatal(err)
		}
		var encoded *Model
		withEncodedMemberships(func() { encoded, err = FitTree(X, y, c, parts, opt) })
		if err != nil {
			t.Fatal(err)
		}
		if !sameNodes(dense.Nodes, encoded.Nodes) || dense.RootPrediction != encoded.RootPrediction || dense.EndedByBreak != encoded.EndedByBreak {
			t.Fatalf("trial %d (%+v): encoded and dense memberships grow different trees:\n%s\nvs\n%s", trial, opt,
				encoded.Tree(learn.Schema{}), dense.Tree(learn.Schema{}))
		}
	}
}

// TestEncodedMembershipsGoldenAblation reruns the authors' ablation rows
// with the encoded store (the dense one serves the real data sets).
func TestEncodedMembershipsGoldenAblation(t *testing.T) {
	withEncodedMemberships(func() { TestGoldenAblation(t) })
}

// TestSharedPreparationContract: preparing on the training rows and
// fitting on them gives the unprepared fit's tree (the learn.SharedPreparer
// contract the runner relies on), for trainers that share a preparation
// while differing in growth options; mismatched keys are refused.
func TestSharedPreparationContract(t *testing.T) {
	X, y := randomData(7, 240, 6, 3)
	s := schemaFor(6, 3)
	for _, o := range []Config{DefaultConfig(), {GrowConfig: benchGrow, Style: fuzzy.PaperStyle}, {GrowConfig: benchGrow, Optimize: true}} {
		preparer, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		prepared, err := preparer.Prepare(X, y, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, rules := range []int{3, 8, 20} {
			o2 := o
			o2.MaxRules = rules
			tr, _ := New(o2)
			shared, err := tr.WithPreparation(prepared)
			if err != nil {
				t.Fatal(err)
			}
			a, err := shared.Fit(X, y, s)
			if err != nil {
				t.Fatal(err)
			}
			b, err := tr.Fit(X, y, s)
			if err != nil {
				t.Fatal(err)
			}
			if ma, mb := a.(*Model), b.(*Model); !sameNodes(ma.Nodes, mb.Nodes) || ma.RootPrediction != mb.RootPrediction {
				t.Errorf("%+v max_rules %d: shared preparation grows another tree", o.GrowConfig, rules)
			}
		}
		other := o
		other.Style = 1 - o.Style
		tr, _ := New(other)
		if _, err := tr.WithPreparation(prepared); err == nil {
			t.Errorf("partitions of style %v accepted for style %v", o.Style, other.Style)
		}
	}
}
