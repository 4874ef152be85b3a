package cart

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestEntropyScreenKeepsTrees grows entropy trees with and without the
// logarithm-free candidate screen and requires identical trees (structure,
// thresholds and every impurity bit). The data is built to produce exact
// and near ties of the proxy: few distinct values, class counts that are
// permutations of each other, up to seven classes and a few thousand rows.
func TestEntropyScreenKeepsTrees(t *testing.T) {
	for seed := uint64(0); seed < 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 16))
		n, d, c := 50+rng.IntN(3000), 1+rng.IntN(6), 2+rng.IntN(6)
		X := make([][]float64, n)
		y := make([]int, n)
		levels := 2 + rng.IntN(40)
		for i := range X {
			X[i] = make([]float64, d)
			for j := range X[i] {
				X[i][j] = float64(rng.IntN(levels))
			}
			y[i] = rng.IntN(c)
			if rng.IntN(3) == 0 { // a signal, so trees grow deep and uneven
				y[i] = int(X[i][0]) % c
			}
		}
		p := Config{Criterion: Entropy, MinSamplesSplit: 2 + rng.IntN(4), MinSamplesLeaf: 1 + rng.IntN(3), RandomState: rng.Uint32()}
		data := prepareClasses(t, X, y, d, c)
		screened := build(data, p, nil)
		exact := newBuilder(data, p, nil)
		exact.xlogx = nil
		if want := exact.grow(); !reflect.DeepEqual(screened, want) {
			t.Errorf("seed %d (n=%d d=%d C=%d): the screened entropy tree differs from the exact scan", seed, n, d, c)
		}
	}
}

// TestFitGroupPrunesOneGrowth: a ccp_alpha grid fitted at once (one growth,
// pruned per alpha) gives the trees of separate fits, with a trainer of
// other parameters in the group fitted on its own.
func TestFitGroupPrunesOneGrowth(t *testing.T) {
	X, y := ringData(600, 5, 3)
	s := namedSchema(make([]string, 5), "out", "in")
	var ts []learn.Trainer
	for _, p := range []Config{
		{Criterion: Gini, MinSamplesSplit: 5, MinSamplesLeaf: 2, RandomState: 42, CCPAlpha: 0.003},
		{Criterion: Gini, MinSamplesSplit: 5, MinSamplesLeaf: 2, RandomState: 42},
		{Criterion: Entropy, MinSamplesSplit: 5, MinSamplesLeaf: 2, RandomState: 42, CCPAlpha: 0.001},
		{Criterion: Gini, MinSamplesSplit: 5, MinSamplesLeaf: 2, RandomState: 42, CCPAlpha: 0.001},
	} {
		ts = append(ts, mustTrainer(t, p))
	}
	got, err := ts[0].(*Trainer).FitGroup(ts, X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := got[0].(*Tree).NodeCount(), got[1].(*Tree).NodeCount(); a >= b {
		t.Fatalf("ccp_alpha 0.003 kept %d of %d nodes: the test prunes nothing", a, b)
	}
	for i, tr := range ts {
		want, err := tr.Fit(X, y, s)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("trainer %d (%+v): group fit differs from its own fit", i, tr.(*Trainer).params)
		}
	}
}
