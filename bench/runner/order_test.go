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
			for i, o := range got {
				// Fold is each unit's place in the input here.
				if o.canonical != o.Fold || o.cells != cells[o.Key] {
					t.Errorf("unit %d (%s): canonical %d, cells %d; want %d, %d", i, o.Key, o.canonical, o.cells, o.Fold, cells[o.Key])
				}
				// Equal keys are told apart by their place in the input: a
				// stable order keeps them rising.
				if i > 0 && o.Key == got[i-1].Key && o.canonical < got[i-1].canonical {
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
	var times []UnitTime
	run := func(names ...string) []int {
		startedFits.Lock()
		startedFits.seen = nil
		startedFits.Unlock()
		s := study.Study{Protocols: []string{"clean"}, Datasets: names,
			Methods: []study.MethodSpec{{Name: "test-order"}}, Options: protocol.DefaultOptions()}
		dir := t.TempDir()
		r := &Runner{Load: testLoader, OutDir: dir, Jobs: 1, NoArtifacts: true, UnitTimes: func(u UnitTime) { times = append(times, u) }}
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
	// The same order as UnitTimes records it: at -j 1 units finish in
	// the order they start, one after the other.
	if len(times) != 10 {
		t.Fatalf("%d unit times, want 10", len(times))
	}
	for i, u := range times {
		if u.Started != i || u.Failed || u.Wall <= 0 {
			t.Errorf("unit time %d: started %d, failed %v, wall %v", i, u.Started, u.Failed, u.Wall)
		}
		// beta's five units come first in canonical order, alpha's next;
		// alpha's start first, and units of equal cells in canonical order.
		if (u.Canonical >= 5) != (i < 5) || u.Unit.Fold != u.Canonical%5 {
			t.Errorf("unit time %d: canonical %d (fold %d), want alpha's units (5 to 9) first", i, u.Canonical, u.Unit.Fold)
		}
		if i > 0 && u.Cells == times[i-1].Cells && u.Canonical < times[i-1].Canonical {
			t.Errorf("unit time %d: canonical %d started after %d, with as many cells", i, u.Canonical, times[i-1].Canonical)
		}
		if int64(seen[i]) != u.Cells {
			t.Errorf("unit time %d: %d cells, its fit had %d", i, u.Cells, seen[i])
		}
		if i > 0 && u.Start < times[i-1].Start+times[i-1].Wall {
			t.Errorf("unit time %d started at %v, before unit %d ended (%v + %v)", i, u.Start, i-1, times[i-1].Start, times[i-1].Wall)
		}
	}
}
