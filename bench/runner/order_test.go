package runner

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
)

func TestLargestFirst(t *testing.T) {
	cells := map[string]int64{"a": 10, "b": 30, "c": 10, "d": 20, "e": 30, "z": 0}
	cases := []struct {
		name string
		keys []string
		want []string
	}{
		{"empty", nil, []string{}},
		{"one", []string{"a"}, []string{"a"}},
		{"largest first, ties in the order given", []string{"a", "b", "c", "d", "e"}, []string{"b", "e", "d", "a", "c"}},
		{"already ordered", []string{"b", "e", "d", "a", "c"}, []string{"b", "e", "d", "a", "c"}},
		{"ties reversed stay reversed", []string{"c", "a", "e", "b"}, []string{"e", "b", "c", "a"}},
		{"unknown size last", []string{"z", "a", "z"}, []string{"a", "z", "z"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			units := make([]study.Unit, len(c.keys))
			for i, k := range c.keys {
				units[i] = study.Unit{Key: k, Fold: i}
			}
			in := slices.Clone(units)
			got := largestFirst(units, func(u study.Unit) int64 { return cells[u.Key] })
			keys := make([]string, len(got))
			for i, u := range got {
				keys[i] = u.Key
			}
			if !slices.Equal(keys, c.want) {
				t.Errorf("order %v, want %v", keys, c.want)
			}
			if !slices.Equal(units, in) {
				t.Error("largestFirst reordered its argument")
			}
			// Equal keys are told apart by their fold (their place in the
			// input): a stable order keeps them rising.
			for i := 1; i < len(got); i++ {
				if got[i].Key == got[i-1].Key && got[i].Fold < got[i-1].Fold {
					t.Errorf("units of equal size swapped: %v", got)
				}
			}
		})
	}
}

// startedFits records, in the order the fits start, the training cells of
// each fit of the test-order method.
var startedFits struct {
	sync.Mutex
	seen []int
}

type orderRecorder struct{ centroid }

func (o orderRecorder) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	startedFits.Lock()
	startedFits.seen = append(startedFits.seen, len(X)*len(s.Features))
	startedFits.Unlock()
	return o.centroid.Fit(X, y, s)
}

func init() {
	methods.Register(&learn.Spec{
		Name: "test-order", Version: 1,
		New: func(c learn.Values, seed int64) (learn.Trainer, error) {
			return orderRecorder{centroid{k: 1, seed: seed}}, nil
		},
	})
}

// TestUnitsStartLargestFirst: with the smaller dataset listed first, a
// run at -j 1 still fits the larger dataset's units first (the order the
// units start in, order.go).
func TestUnitsStartLargestFirst(t *testing.T) {
	run := func(names ...string) []int {
		startedFits.Lock()
		startedFits.seen = nil
		startedFits.Unlock()
		s := study.Study{Protocols: []string{"clean"}, Datasets: names,
			Methods: []study.MethodSpec{{Name: "test-order"}}, Options: protocol.DefaultOptions()}
		dir := t.TempDir()
		r := &Runner{Load: testLoader, OutDir: dir, Jobs: 1, NoArtifacts: true}
		if _, err := r.Run(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		startedFits.Lock()
		defer startedFits.Unlock()
		return slices.Clone(startedFits.seen)
	}
	seen := run("beta", "alpha") // beta has 61 rows, alpha 90
	if len(seen) != 10 {
		t.Fatalf("%d fits, want 10 (two datasets × 5 folds)", len(seen))
	}
	if !slices.IsSortedFunc(seen, func(a, b int) int { return b - a }) {
		t.Errorf("training cells in the order fits started: %v; want the largest first", seen)
	}
}
