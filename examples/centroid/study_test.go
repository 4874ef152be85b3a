package centroid_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/examples/centroid"
	"github.com/fgrtbench/fgrtbench/results"
)

// The registration line. A learner shipped with fgrtbench has it in
// bench/methods/registry.go (func builtin); the example registers itself
// only in this test binary.
func init() { methods.Register(centroid.Spec) }

// clouds is a two-class data set the learner separates well.
func clouds(ctx context.Context, name string) (*datasets.Dataset, error) {
	if name != "clouds" {
		return nil, fmt.Errorf("unknown dataset %q", name)
	}
	r := rand.New(rand.NewPCG(3, 4))
	d := &datasets.Dataset{Name: name, Classes: []string{"left", "right"}}
	for _, f := range []string{"x", "y"} {
		d.Inputs = append(d.Inputs, datasets.Attribute{Name: f, Type: "real", Min: math.NaN(), Max: math.NaN()})
	}
	for i := range 60 {
		c := i % 2
		d.X = append(d.X, []float64{4*float64(c) + r.NormFloat64(), r.NormFloat64()})
		d.Y = append(d.Y, c)
	}
	return d, nil
}

// TestTinyStudy runs the registered example through the harness: a clean
// cross-validation of both grids, written to results.csv like any method.
func TestTinyStudy(t *testing.T) {
	o := protocol.DefaultOptions()
	o.Repeats = 1
	o.InnerFolds = 3
	study := study.Study{
		Protocols: []string{"clean"},
		Datasets:  []string{"clouds"},
		Methods:   []study.MethodSpec{{Name: "centroid"}, {Name: "centroid", Grid: "shrink", Label: "centroid@shrink"}},
		Options:   o,
	}
	r := &runner.Runner{Load: clouds, OutDir: t.TempDir(), Jobs: 1}
	sum, err := r.Run(context.Background(), study)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || sum.Ran == 0 {
		t.Fatalf("summary %+v", sum)
	}
	recs, err := results.ReadFile(sum.ResultsPath)
	if err != nil {
		t.Fatal(err)
	}
	// One row per outer fold and label: the plain method, and the grid
	// whose point the clean protocol's inner cross-validation selected.
	rows := map[string]int{}
	for _, rec := range recs {
		rows[rec.Method]++
		if rec.Accuracy < 0.8 {
			t.Errorf("%s fold %d (%s): accuracy %v on separated clouds", rec.Method, rec.Fold, rec.Config, rec.Accuracy)
		}
	}
	if len(rows) != 2 || rows["centroid"] == 0 || rows["centroid"] != rows["centroid@shrink"] {
		t.Errorf("rows per method in results.csv: %v", rows)
	}
	if got := methods.DisplayName("centroid"); got != "Nearest centroid" {
		t.Errorf("display name %q", got)
	}
}
