package fgrt

import (
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestFitGroupMatchesSeparateFits: fitting a grid at once (shared
// partitions, memberships and growth) gives every configuration the model
// its own Fit gives, for grids that mix every growth option, unprepared,
// prepared and FGRT* trainers, and a trainer of another partition setup in
// the same group.
func TestFitGroupMatchesSeparateFits(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	for trial := 0; trial < 30; trial++ {
		n, d, c := 40+r.IntN(300), 2+r.IntN(7), 2+r.IntN(3)
		X, y := randomData(uint64(100+trial), n, d, c)
		s := schemaFor(d, c)
		base := DefaultConfig()
		base.Optimize = trial%5 == 4
		var ts []learn.Trainer
		for i := 0; i < 2+r.IntN(14); i++ {
			o := base
			o.MaxRules = 1 + r.IntN(25)
			o.CoverageThreshold = []float64{0, 0.01, 0.05}[r.IntN(3)]
			o.MinImprovement = []float64{0, 0.005, 0.01, 0.05}[r.IntN(4)]
			o.Patience = 1 + r.IntN(4)
			o.FixQ1, o.FixQ2 = r.IntN(3) == 0, r.IntN(2) == 0
			if r.IntN(6) == 0 {
				o.EarlyStopThreshold = 0.05
			}
			if r.IntN(8) == 0 {
				o.Style = 1 - o.Style // another partition setup: fitted alone
			}
			tr, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			ts = append(ts, tr)
		}
		if trial%3 == 1 { // prepared on the training rows, shared
			p, err := ts[0].(*Trainer).Prepare(X, y, s)
			if err != nil {
				t.Fatal(err)
			}
			for i, tr := range ts {
				if shared, err := tr.(*Trainer).WithPreparation(p); err == nil {
					ts[i] = shared
				}
			}
		}
		got, err := ts[0].(*Trainer).FitGroup(ts, X, y, s)
		if err != nil {
			t.Fatal(err)
		}
		for i, tr := range ts {
			want, err := tr.Fit(X, y, s)
			if err != nil {
				t.Fatal(err)
			}
			g, w := got[i].(*Model), want.(*Model)
			if !sameNodes(g.Nodes, w.Nodes) || g.RootPrediction != w.RootPrediction || g.EndedByBreak != w.EndedByBreak || g.Clamp != w.Clamp {
				t.Fatalf("trial %d trainer %d (%+v): group fit differs:\n%s\nvs\n%s", trial, i, tr.(*Trainer).opts.GrowConfig,
					g.Tree(learn.Schema{}), w.Tree(learn.Schema{}))
			}
		}
	}
}

// TestFitGroupWithoutFeatures: trainers prepared on a schema without
// features fail as a single Fit does, without a panic.
func TestFitGroupWithoutFeatures(t *testing.T) {
	X := [][]float64{{}, {}, {}}
	y := []int{0, 1, 0}
	s := learn.Schema{Classes: []string{"a", "b"}}
	tr, _ := New(DefaultConfig())
	p, err := tr.Prepare(X, y, s)
	if err != nil {
		t.Skipf("preparing without features is refused already: %v", err)
	}
	ts := []learn.Trainer{p, p}
	if _, err := p.(*Trainer).FitGroup(ts, X, y, s); err == nil {
		t.Error("a group without features fitted")
	}
}
