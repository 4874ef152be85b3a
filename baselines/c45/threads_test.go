package c45

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// tiedData draws n rows of d >= 6 columns and the given number of classes,
// full of what a parallel fit must handle as the serial one does: column 0
// is constant, column 1 a copy of column 2, column 3 nominal with four
// codes, column 4 nominal with a code per few rows (one of J48's "many
// values" attributes), columns of few levels alternate with continuous
// ones, missingRate of the values are missing (rows then go down several
// branches with fractional weights), every fifth row repeats an earlier
// one, and labels follow columns 2, 3 and 5 with noise.
func tiedData(n, d, classes int, missingRate float64, seed uint64) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(seed, 33))
	X, y := make([][]float64, n), make([]int, n)
	for i := range X {
		if i >= 5 && i%5 == 0 {
			j := rng.IntN(i)
			X[i], y[i] = append([]float64(nil), X[j]...), y[j]
			continue
		}
		row := make([]float64, d)
		for f := 5; f < d; f++ {
			if f%2 == 0 {
				row[f] = float64(rng.IntN(3 + f))
			} else {
				row[f] = math.Round(rng.NormFloat64()*100) / 100
			}
		}
		row[0], row[2], row[3], row[4] = 7, float64(rng.IntN(6)), float64(rng.IntN(4)), float64(rng.IntN(n/3))
		row[1] = row[2]
		y[i] = (int(row[2]) + int(row[3])) % classes
		if row[5] > 0.5 || rng.IntN(5) == 0 {
			y[i] = rng.IntN(classes)
		}
		for f := range row {
			if rng.Float64() < missingRate {
				row[f] = math.NaN()
			}
		}
		X[i] = row
	}
	s := learn.Schema{Features: make([]learn.Feature, d)}
	for f := range s.Features {
		s.Features[f].Name = fmt.Sprintf("x%d", f)
	}
	s.Features[3].Nominal, s.Features[4].Nominal = true, true
	for c := 0; c < classes; c++ {
		s.Classes = append(s.Classes, fmt.Sprintf("c%d", c))
	}
	return X, y, s
}

// fitBytes fits tr (with the budget b when not nil, inside b.Do as a unit
// worker would) and returns the model's JSON description, its Weka text
// and its predictions on X.
func fitBytes(t *testing.T, tr *Trainer, b *par.Budget, X [][]float64, y []int, s learn.Schema) ([]byte, string) {
	t.Helper()
	var m learn.Model
	var err error
	fit := func() { m, err = learn.WithThreads(tr, b).Fit(X, y, s) }
	if b == nil {
		fit()
	} else {
		b.Do(fit)
	}
	if err != nil {
		t.Fatal(err)
	}
	desc, err := m.(*Model).Describe(s)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(desc)
	if err != nil {
		t.Fatal(err)
	}
	return raw, fmt.Sprint(m.(*Model).WekaString(s), m.Predict(X))
}

// TestThreadsGrowTheSameTree: fits spread over a budget of 2, 4 or 16
// threads (more than GOMAXPROCS, which some cases lower to 1; the budgets
// Oversubscribe, so that For lends them all) give the
// serial fit's model, tree text and predictions byte for byte, with the
// real size thresholds and with every node spread, and did run in
// parallel.
func TestThreadsGrowTheSameTree(t *testing.T) {
	unpruned := DefaultConfig()
	unpruned.Unpruned, unpruned.MinObj = true, 1
	cases := []struct {
		name              string
		n, d, classes     int
		missing           float64
		cfg               Config
		spreadAll         bool
		threads, maxprocs int
	}{
		{"default", 8000, 10, 3, 0, DefaultConfig(), false, 4, 0},
		{"missing values", 8000, 10, 4, 0.02, DefaultConfig(), false, 4, 0},
		{"every node", 3000, 8, 3, 0, DefaultConfig(), true, 4, 0},
		{"every node, missing values", 3000, 8, 5, 0.05, DefaultConfig(), true, 2, 0},
		{"unpruned", 3000, 7, 3, 0.01, unpruned, true, 4, 0},
		{"budget above GOMAXPROCS=1", 8000, 10, 3, 0.01, DefaultConfig(), false, 16, 1},
		{"budget above GOMAXPROCS=2", 3000, 8, 3, 0, DefaultConfig(), true, 16, 2},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.spreadAll {
				defer func(s, ch int) { minSpreadSearch, minSpreadChildren = s, ch }(minSpreadSearch, minSpreadChildren)
				minSpreadSearch, minSpreadChildren = 0, 0
			}
			if c.maxprocs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.maxprocs))
			}
			X, y, s := tiedData(c.n, c.d, c.classes, c.missing, uint64(i))
			tr := mustNew(t, c.cfg)
			wantJSON, wantText := fitBytes(t, tr, nil, X, y, s)
			b := par.NewBudget(c.threads).Oversubscribe()
			gotJSON, gotText := fitBytes(t, tr, b, X, y, s)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Errorf("the model fitted on %d threads differs from the serial one", c.threads)
			}
			if gotText != wantText {
				t.Errorf("the tree text or predictions of the model fitted on %d threads differ", c.threads)
			}
			if b.Peak() < 2 {
				t.Errorf("peak %d busy threads: the fit never spread", b.Peak())
			}
		})
	}
}

// TestSmallFitsStaySerial: below the size thresholds a fit takes no thread
// beyond its own, whatever the budget.
func TestSmallFitsStaySerial(t *testing.T) {
	X, y, s := tiedData(minSpreadChildren/10-1, 10, 3, 0, 5)
	b := par.NewBudget(4).Oversubscribe()
	fitBytes(t, mustNew(t, DefaultConfig()), b, X, y, s)
	if b.Peak() != 1 {
		t.Errorf("a %d×10 fit used %d threads, want 1", len(X), b.Peak())
	}
}

// TestWithThreadsKeepsSettings: the budget is not a setting.
func TestWithThreadsKeepsSettings(t *testing.T) {
	tr := mustNew(t, DefaultConfig())
	b := par.NewBudget(3).Oversubscribe()
	threaded := learn.WithThreads(tr, b).(*Trainer)
	if threaded.Config() != tr.Config() || threaded.threads != b || tr.threads != nil {
		t.Fatalf("WithThreads: config %+v budget %p, original budget %p", threaded.Config(), threaded.threads, tr.threads)
	}
}
