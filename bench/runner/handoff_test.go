package runner

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
)

// rowsReader is a learner that reads its training rows into a centroid
// model and then asks whether anything else still holds them: it sets a
// finalizer on the rows' memory, lets them go and collects garbage twice.
// rowsHeld counts the fits whose rows stayed reachable.
type rowsReader struct{}

var rowsHeld, rowsFits atomic.Int32

func init() {
	methods.Register(&learn.Spec{
		Name: "test-rows-reader", Version: 1,
		Grids: map[string]learn.Grid{"default": {{}}},
		New:   func(learn.Values, int64) (learn.Trainer, error) { return rowsReader{}, nil },
	})
}

func (rowsReader) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	freed := make(chan struct{})
	// A clean fold's rows are one allocation, its first row at the start.
	runtime.SetFinalizer(&X[0][0], func(*float64) { close(freed) })
	m, err := centroid{k: 2}.Fit(X, y, s)
	X = nil
	runtime.GC()
	runtime.GC()
	select {
	case <-freed:
	case <-time.After(2 * time.Second):
		rowsHeld.Add(1)
	}
	rowsFits.Add(1)
	return m, err
}

// TestFitOwnsItsRows: once a fit has read a clean fold's scaled training
// rows, nothing else holds them, so the collector can take them while it
// runs (on 10^6 rows they are 147 MB per worker; the loop over a unit's
// configurations kept them reachable through every fit until the rows
// were handed to the last one).
func TestFitOwnsItsRows(t *testing.T) {
	rowsHeld.Store(0)
	rowsFits.Store(0)
	o := protocol.DefaultOptions()
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"alpha"}, Options: o,
		Methods: []study.MethodSpec{{Name: "test-rows-reader", Selection: protocol.SelectTest}}}
	r := &Runner{Load: testLoader, OutDir: t.TempDir(), Jobs: 1, Shard: study.Shard{Index: 0, Count: 5}}
	if _, err := r.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if rowsFits.Load() == 0 || rowsHeld.Load() != 0 {
		t.Fatalf("%d of %d fits found their rows still held by the runner after reading them", rowsHeld.Load(), rowsFits.Load())
	}
}

// outerRowsReader is rowsReader for the fit on a whole outer fold only
// (minRows rows or more): the inner cross-validation's fits, on fewer
// rows, are plain centroid fits.
type outerRowsReader struct{ minRows int }

func init() {
	methods.Register(&learn.Spec{
		Name: "test-rows-reader-cv", Version: 1,
		Params: []learn.Param{{Name: "k", Kind: learn.Int, Default: "1", Min: 1, HasMin: true}},
		Grids:  map[string]learn.Grid{"default": {{"k": "1"}, {"k": "2"}}},
		New:    func(learn.Values, int64) (learn.Trainer, error) { return outerRowsReader{minRows: 70}, nil },
	})
}

func (r outerRowsReader) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	if len(X) < r.minRows {
		return centroid{k: 2}.Fit(X, y, s)
	}
	return rowsReader{}.Fit(X, y, s)
}

// TestChosenFitOwnsItsRows is TestFitOwnsItsRows for a grid chosen by
// inner cross-validation: the chosen configuration's fit on the whole
// fold (shared rows, foldCache) is their last reader, so nothing else
// holds them while it runs.
func TestChosenFitOwnsItsRows(t *testing.T) {
	rowsHeld.Store(0)
	rowsFits.Store(0)
	o := protocol.DefaultOptions()
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"alpha"}, Options: o, // 72 training rows per fold, 57 or 58 per inner split
		Methods: []study.MethodSpec{{Name: "test-rows-reader-cv"}}}
	r := &Runner{Load: testLoader, OutDir: t.TempDir(), Jobs: 1, Shard: study.Shard{Index: 0, Count: 5}}
	if _, err := r.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if rowsFits.Load() != 1 || rowsHeld.Load() != 0 {
		t.Fatalf("%d of %d outer fits found their rows still held by the runner after reading them (want 1 fit)", rowsHeld.Load(), rowsFits.Load())
	}
}
