package external_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/external/externaltest"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/results"
)

// synthetic is a small 3-class dataset with a numeric and a nominal
// column.
func synthetic(ctx context.Context, name string) (*datasets.Dataset, error) {
	rng := rand.New(rand.NewPCG(7, uint64(len(name))))
	d := &datasets.Dataset{Name: name, Classes: []string{"a", "b", "c"}}
	for j := 0; j < 3; j++ {
		d.Inputs = append(d.Inputs, datasets.Attribute{Name: fmt.Sprintf("f%d", j), Type: "real", Min: math.NaN(), Max: math.NaN()})
	}
	for i := 0; i < 75; i++ {
		c := i % 3
		row := []float64{rng.NormFloat64() + float64(c), rng.NormFloat64() - 0.5*float64(c), rng.Float64()}
		d.X = append(d.X, row)
		d.Y = append(d.Y, c)
	}
	return d, nil
}

// blankTiming returns results.csv with its timing columns emptied: the
// rest of the file must be the same bytes in both modes.
func blankTiming(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	header := strings.Split(lines[0], ",")
	var timing []int
	for i, h := range header {
		if strings.HasSuffix(h, "_seconds") {
			timing = append(timing, i)
		}
	}
	if len(timing) != 2 {
		t.Fatalf("header %q: want two timing columns", lines[0])
	}
	for i := 1; i < len(lines); i++ {
		if lines[i] == "" {
			continue
		}
		cells := strings.Split(lines[i], ",") // no quoted commas: configs hold none here
		for _, j := range timing {
			cells[j] = ""
		}
		lines[i] = strings.Join(cells, ",")
	}
	return strings.Join(lines, "\n")
}

// TestModesGiveIdenticalResults: a study of the Go adapter (a sweep
// selected by inner CV, and reported point by point, under the clean and
// paper protocols) writes the same results.csv, timing aside, in process
// and worker mode, with the same identity.
func TestModesGiveIdenticalResults(t *testing.T) {
	adapter := externaltest.GoAdapter(t)
	o := protocol.DefaultOptions()
	o.Folds, o.InnerFolds = 3, 2
	st := func(mode string) study.Study {
		spec := func() *external.Spec {
			return &external.Spec{Command: adapter + " {dir} {seed} {mode}", Params: map[string]string{"mode": "ok", "k": "1"}, Mode: mode}
		}
		return study.Study{
			Protocols: []string{"clean", "paper"},
			Datasets:  []string{"alpha"},
			Methods: []study.MethodSpec{
				{Name: "external", Label: "ext", External: spec(), Sweep: map[string][]string{"k": {"1", "2"}}},
				{Name: "external", Label: "ext-sweep", External: spec(), Sweep: map[string][]string{"k": {"1", "2"}}, Selection: protocol.SelectSweep},
			},
			Options: o,
		}
	}
	var files []string
	for _, mode := range []string{external.ModeProcess, external.ModeWorker} {
		dir := t.TempDir()
		r := &runner.Runner{Load: synthetic, OutDir: dir, Jobs: 2}
		sum, err := r.Run(context.Background(), st(mode))
		if err != nil || sum.Ran == 0 {
			t.Fatalf("%s: %+v, %v", mode, sum, err)
		}
		files = append(files, blankTiming(t, filepath.Join(dir, results.FileName)))
	}
	if files[0] != files[1] {
		t.Errorf("results differ between modes:\n%s\n---\n%s", files[0], files[1])
	}
	a, err := study.IdentityOf(st(external.ModeProcess), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := study.IdentityOf(st(external.ModeWorker), nil)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the mode changes the study's identity")
	}
}
