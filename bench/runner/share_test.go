package runner

import (
	"math"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// scaled is a centroid learner on features divided by their spread; the
// spread is its data-dependent preparation. sharedScaled exposes that
// preparation as a learn.SharedPreparer (it depends on no parameter), so
// the runner shares it between the grid's configurations.
type scaled struct {
	k     int
	scale []float64
}

type scaledModel struct {
	inner learn.Model
	scale []float64
}

func spread(X [][]float64) []float64 {
	sc := make([]float64, len(X[0]))
	for j := range sc {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, row := range X {
			lo, hi = min(lo, row[j]), max(hi, row[j])
		}
		sc[j] = hi - lo + 1
	}
	return sc
}

func rescale(X [][]float64, sc []float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, row := range X {
		out[i] = make([]float64, len(row))
		for j, v := range row {
			out[i][j] = v / sc[j]
		}
	}
	return out
}

func (c scaled) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	sc := c.scale
	if sc == nil {
		sc = spread(X)
	}
	m, err := centroid{k: c.k}.Fit(rescale(X, sc), y, s)
	return &scaledModel{inner: m, scale: sc}, err
}

func (m *scaledModel) Predict(X [][]float64) []int  { return m.inner.Predict(rescale(X, m.scale)) }
func (m *scaledModel) Complexity() learn.Complexity { return m.inner.Complexity() }
func (m *scaledModel) Rules(s learn.Schema) string  { return m.inner.Rules(s) }

var sharedPrepares, groupFits atomic.Int64

type sharedScaled struct{ scaled }

func (c sharedScaled) Prepare(X [][]float64, _ []int, _ learn.Schema) (learn.Trainer, error) {
	sharedPrepares.Add(1)
	return sharedScaled{scaled{k: c.k, scale: spread(X)}}, nil
}

func (c sharedScaled) PrepareKey() string { return "spread" }

func (c sharedScaled) WithPreparation(p learn.Trainer) (learn.Trainer, error) {
	return sharedScaled{scaled{k: c.k, scale: p.(sharedScaled).scale}}, nil
}

func (c sharedScaled) FitGroup(ts []learn.Trainer, X [][]float64, y []int, s learn.Schema) ([]learn.Model, error) {
	groupFits.Add(1)
	out := make([]learn.Model, len(ts))
	for i, t := range ts {
		m, err := t.Fit(X, y, s)
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

func init() {
	for _, shared := range []bool{false, true} {
		name := "test-scaled"
		if shared {
			name = "test-scaled-shared"
		}
		methods.Register(&learn.Spec{
			Name:    name,
			Version: 1,
			Params:  []learn.Param{{Name: "k", Kind: learn.Int, Default: "2", Min: 1, HasMin: true}},
			Grids:   map[string]learn.Grid{"default": {{"k": "1"}, {"k": "2"}, {"k": "3"}, {"k": "4"}}},
			New: func(c learn.Values, _ int64) (learn.Trainer, error) {
				if shared {
					return sharedScaled{scaled{k: c.Int("k")}}, nil
				}
				return scaled{k: c.Int("k")}, nil
			},
		})
	}
}

// TestInnerCVSharesPreparations: with a shared preparer, inner
// cross-validation prepares once per inner training set instead of once
// per configuration, hands each inner training set's grid to the group
// fitter at once, and selects and scores exactly as separate fits do.
func TestInnerCVSharesPreparations(t *testing.T) {
	o := protocol.DefaultOptions()
	o.InnerFolds = 3
	st := study.Study{
		Protocols: []string{"clean"},
		Datasets:  []string{"alpha", "beta"},
		Methods:   []study.MethodSpec{{Name: "test-scaled"}, {Name: "test-scaled-shared"}},
		Options:   o,
	}
	dir := t.TempDir()
	sharedPrepares.Store(0)
	groupFits.Store(0)
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2}
	if _, err := r.Run(t.Context(), st); err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadFile(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	type cell struct {
		dataset      string
		repeat, fold int
	}
	plain, shared := map[cell]results.Record{}, map[cell]results.Record{}
	for _, r := range recs {
		c := cell{r.Dataset, r.Repeat, r.Fold}
		switch r.Method {
		case "test-scaled":
			plain[c] = r
		case "test-scaled-shared":
			shared[c] = r
		}
	}
	if len(plain) != 2*o.Folds*o.Repeats || len(shared) != len(plain) {
		t.Fatalf("%d plain and %d shared rows, want %d each", len(plain), len(shared), 2*o.Folds*o.Repeats)
	}
	for c, p := range plain {
		s := shared[c]
		if s.ConfigIndex != p.ConfigIndex || s.Correct != p.Correct || s.Accuracy != p.Accuracy {
			t.Errorf("%+v: shared preparation selected config %d (%d correct), separate fits %d (%d correct)",
				c, s.ConfigIndex, s.Correct, p.ConfigIndex, p.Correct)
		}
	}
	// One preparation per inner training set: units × inner folds, not × 4
	// configurations (the outer fit of the selected configuration prepares
	// nothing under the clean protocol).
	if got, want := sharedPrepares.Load(), int64(len(shared)*o.InnerFolds); got != want {
		t.Errorf("%d preparations, want %d (one per inner training set)", got, want)
	}
	if got, want := groupFits.Load(), int64(len(shared)*o.InnerFolds); got != want {
		t.Errorf("%d group fits, want %d (one per inner training set)", got, want)
	}
}
