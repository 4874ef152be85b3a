package fgrt

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// tiedData is synthetic data with ties: values rounded to a few levels,
// every fifth row a copy of the row before, and a constant last feature.
func tiedData(seed uint64, n, d int) ([][]float64, []int) {
	X, y := synthetic(seed, n, d)
	r := rand.New(rand.NewPCG(seed, 11))
	for i, row := range X {
		for j := range row {
			row[j] = float64(int(row[j]*4)) / 4
		}
		row[d-1] = 3
		if i%5 == 4 {
			copy(row, X[i-1])
			y[i] = y[i-1]
		}
		if r.IntN(7) == 0 {
			y[i] = 2 // a third class, unrelated to the features
		}
	}
	return X, y
}

// fitWith fits every trainer of ts as one group on X under the budget b
// (nil: serially), and returns each model's JSON and predictions on X.
func fitWith(t *testing.T, ts []learn.Trainer, b *par.Budget, X [][]float64, y []int, s learn.Schema) ([][]byte, [][]int) {
	t.Helper()
	threaded := make([]learn.Trainer, len(ts))
	for i, tr := range ts {
		threaded[i] = learn.WithThreads(tr, b)
	}
	var ms []learn.Model
	var err error
	fit := func() { ms, err = threaded[0].(learn.GroupFitter).FitGroup(threaded, X, y, s) }
	if b == nil {
		fit()
	} else {
		b.Do(fit)
	}
	if err != nil {
		t.Fatal(err)
	}
	js, preds := make([][]byte, len(ms)), make([][]int, len(ms))
	for i, m := range ms {
		if js[i], err = m.(*Model).JSON(s); err != nil {
			t.Fatal(err)
		}
		preds[i] = m.Predict(X)
	}
	return js, preds
}

// TestThreadsGiveSerialModels fits FGRT and FGRT* serially and on a
// budget of four threads, above and below parallelRows, with both stores
// of memberships and with a group of configurations, and requires the
// same models (JSON, byte for byte) and predictions; the budget must also
// have run more than one thread at once on large data, or the test checks
// nothing.
func TestThreadsGiveSerialModels(t *testing.T) {
	for _, tc := range []struct {
		rows    int
		encoded bool
		opt     bool
	}{
		{parallelRows / 2, false, false}, {parallelRows + 3, false, false},
		{parallelRows + 3, true, false}, {parallelRows + 3, false, true},
		{2*productChunk + 5, true, false}, // chunks of childStrengths decode from a rank
	} {
		t.Run(fmt.Sprintf("rows=%d/encoded=%v/optimize=%v", tc.rows, tc.encoded, tc.opt), func(t *testing.T) {
			if tc.encoded {
				saved := denseLimit
				denseLimit = -1
				defer func() { denseLimit = saved }()
			}
			X, y := tiedData(5, tc.rows, 6)
			s := schemaFor(6, 3)
			var ts []learn.Trainer
			for _, p := range []struct {
				rules int
				cov   float64
			}{{15, 0.01}, {30, 0.01}, {15, 0.001}} {
				o := DefaultConfig()
				o.MaxRules, o.CoverageThreshold, o.Optimize = p.rules, p.cov, tc.opt
				tr, err := New(o)
				if err != nil {
					t.Fatal(err)
				}
				ts = append(ts, tr)
			}
			wantJS, wantPred := fitWith(t, ts, nil, X, y, s)
			b := par.NewBudget(4).Oversubscribe()
			gotJS, gotPred := fitWith(t, ts, b, X, y, s)
			for i := range ts {
				if !bytes.Equal(gotJS[i], wantJS[i]) {
					t.Errorf("model %d: parallel JSON differs from serial:\n%s\nvs\n%s", i, gotJS[i], wantJS[i])
				}
				if !reflect.DeepEqual(gotPred[i], wantPred[i]) {
					t.Errorf("model %d: parallel predictions differ from serial", i)
				}
			}
			if spread := tc.rows >= parallelRows; spread != (b.Peak() > 1) {
				t.Errorf("%d rows: peak of %d busy threads, want spread=%v", tc.rows, b.Peak(), spread)
			}
		})
	}
}

// TestEncodeStrengthsMatchesSerial: the chunked encoding of a column of
// zeros (both signs), ones and fractions is encodeColumn's, byte for byte,
// for lengths around the chunk size.
func TestEncodeStrengthsMatchesSerial(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{parallelRows, productChunk - 1, productChunk + 1, 2*productChunk + 7} {
		m := make([]float64, n)
		for i := range m {
			switch r.IntN(4) {
			case 0:
				m[i] = 1
			case 1:
				m[i] = r.Float64()
			case 2:
				m[i] = math.Copysign(0, -1)
			}
		}
		b := par.NewBudget(4).Oversubscribe()
		g := &grower{n: n, threads: b}
		var got packedColumn
		b.Do(func() { got = g.encodeStrengths(m) })
		want := encodeColumn(m)
		same := bytes.Equal(got.codes, want.codes) && len(got.frac) == len(want.frac)
		for i := 0; same && i < len(want.frac); i++ {
			same = math.Float64bits(got.frac[i]) == math.Float64bits(want.frac[i])
		}
		if !same {
			t.Errorf("n=%d: chunked encoding differs from encodeColumn", n)
		}
	}
}

// TestClassDotsMatchSequentialSums: the per-class sums of classDots, for
// every candidate of both stores, are childClass's sequential sums bit for
// bit, and the store's buffer holds the candidate afterwards.
func TestClassDotsMatchSequentialSums(t *testing.T) {
	for _, encoded := range []bool{false, true} {
		saved := denseLimit
		if encoded {
			denseLimit = -1
		}
		X, y := synthetic(8, parallelRows+100, 5) // fractional memberships everywhere
		for i := range y {
			y[i] += i % 2 // three classes
		}
		parts, err := fuzzy.FitPartitions(X, make([]bool, 5), fuzzy.QuantileStyle)
		if err != nil {
			t.Fatal(err)
		}
		b := par.NewBudget(4).Oversubscribe()
		g, err := newGrower(X, y, 3, parts, 5, nil, benchGrow, b)
		denseLimit = saved
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(2, 2))
		m := make([]float64, g.n)
		for i := range m {
			m[i] = float64(r.IntN(3)) * r.Float64()
		}
		for k := range g.cands {
			var got []float64
			b.Do(func() { got = g.classDots(m, k) })
			// Decoded afresh: the store's buffer is what classDots wrote.
			mu := g.mu.cands[k].dense
			if encoded {
				mu = make([]float64, g.n)
				decode(mu, g.mu.cands[k].codes, 0, g.mu.cands[k].frac)
				if g.mu.bufK != k || !reflect.DeepEqual(g.mu.buf[:g.n], mu) {
					t.Errorf("candidate %d: the store's buffer does not hold it after classDots", k)
				}
			}
			for cls := 0; cls < 3; cls++ {
				want := 0.0
				for i := g.start[cls]; i < g.start[cls+1]; i++ {
					want += m[i] * mu[i]
				}
				if math.Float64bits(got[cls]) != math.Float64bits(want) {
					t.Errorf("encoded=%v candidate %d class %d: %v, want %v", encoded, k, cls, got[cls], want)
				}
			}
		}
	}
}
