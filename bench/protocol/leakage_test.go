package protocol_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/c45"
	"github.com/fgrtbench/fgrtbench/baselines/cart"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/fgrt"
	"github.com/fgrtbench/fgrtbench/learn"
)

// leakCSV is a data file as cells (a header, then one row per data row):
// two numeric inputs (x1 with missing cells), two nominal ones with missing
// cells and no declared domain (every category is coded from the data),
// and three classes. The colour "violet" first appears at row 120, late
// enough that a test row earlier in the file can take it.
func leakCSV() [][]string {
	rng := rand.New(rand.NewPCG(39, 3))
	rows := [][]string{{"x0", "x1", "colour", "shape", "class"}}
	colours := []string{"red", "green", "blue", "violet"}
	for i := range 160 {
		c := rng.IntN(3)
		colour := colours[(c+rng.IntN(2))%3]
		if i >= 120 && rng.IntN(3) == 0 {
			colour = "violet"
		}
		x1 := fmt.Sprintf("%.3f", 40+10*rng.Float64()+5*float64(c))
		if i%9 == 4 {
			x1 = "?"
		}
		if i%13 == 6 {
			colour = "?"
		}
		shape := []string{"round", "square", "flat"}[(i+c)%3]
		if i%17 == 8 {
			shape = ""
		}
		rows = append(rows, []string{fmt.Sprintf("%.4f", rng.NormFloat64()+float64(c)), x1, colour, shape, fmt.Sprint("k", c)})
	}
	return rows
}

func readLeakCSV(t *testing.T, cells [][]string) *datasets.Dataset {
	t.Helper()
	var b strings.Builder
	for _, row := range cells {
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	d, err := datasets.ReadCSV(strings.NewReader(b.String()), "leak", "", "class")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// foldRun is what one fold shows its learners and what they predict.
type foldRun struct {
	schema learn.Schema
	xtr    [][]float64
	ytr    []int
	test   map[int][]float64 // file row -> its preprocessed test row
	pred   map[string]map[int]int
}

func runFold(t *testing.T, proto protocol.Protocol, o protocol.Options, d *datasets.Dataset) foldRun {
	t.Helper()
	plan, err := proto.Plan(d, o)
	if err != nil {
		t.Fatal(err)
	}
	f := &plan.Folds[0]
	s := plan.ForFold(0).Schema
	xtr, xte := f.Matrices(nil)
	r := foldRun{schema: s, ytr: f.YTrain, test: map[int][]float64{}, pred: map[string]map[int]int{}}
	for _, row := range xtr {
		r.xtr = append(r.xtr, slices.Clone(row))
	}
	for i, src := range f.TestRows {
		r.test[src] = slices.Clone(xte[i])
	}
	fg, err := fgrt.New(fgrt.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ca, err := cart.New(cart.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c45.New(c45.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for name, tr := range map[string]learn.Trainer{"fgrt": fg, "cart": ca, "c45": tree} {
		m, err := tr.Fit(r.xtr, r.ytr, s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pred := m.Predict(xte)
		r.pred[name] = map[int]int{}
		for i, src := range f.TestRows {
			r.pred[name][src] = pred[i]
		}
	}
	return r
}

// sameBits compares rows bit for bit (NaN equal to NaN).
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestTestRowsDoNotLeak: under every leakage-free protocol with
// missing-value policy impute (and drop, where a new missing cell would
// drop the row and so move the folds), editing the test rows of a fold (a
// numeric value, a category, a missing cell, their order) changes neither the
// fold's training inputs and schema nor any other test row's inputs or
// predictions (FGRT, CART, C4.5). Coding nominal columns on the whole
// file fails it: a category that a test row shows first re-codes the
// training rows.
func TestTestRowsDoNotLeak(t *testing.T) {
	base := leakCSV()
	d := readLeakCSV(t, base)
	options := func(missing, holdoutTrain string) protocol.Options {
		o := protocol.DefaultOptions()
		o.Missing, o.HoldoutTrain, o.InnerFolds = missing, holdoutTrain, 3
		return o
	}
	protocols := []struct {
		name  string
		proto protocol.Protocol
		o     protocol.Options
	}{
		{"clean impute", protocol.Clean{}, options(protocol.MissingImpute, "")},
		{"holdout impute", protocol.Holdout{}, options(protocol.MissingImpute, "")},
		{"holdout 64 impute", protocol.Holdout{}, options(protocol.MissingImpute, protocol.HoldoutTrain64)},
		{"clean drop", protocol.Clean{}, options("", "")},
		{"holdout drop", protocol.Holdout{}, options("", "")},
		{"holdout 64 drop", protocol.Holdout{}, options("", protocol.HoldoutTrain64)},
	}
	const colour, x0, x1 = 2, 0, 1
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			want := runFold(t, p.proto, p.o, d)
			var test []int // the fold's test rows, file order
			for r := range want.test {
				test = append(test, r)
			}
			slices.Sort(test)
			// first is the earliest test row with a colour other than violet.
			first := slices.IndexFunc(test, func(r int) bool { v := base[r+1][colour]; return v != "?" && v != "violet" })
			if first < 0 || test[first] >= 120 {
				t.Fatalf("no test row before violet's first appearance: %v", test)
			}
			// a and b are two test rows of one class with other contents.
			a, b := -1, -1
			for i, r := range test {
				for _, q := range test[i+1:] {
					if a < 0 && base[r+1][4] == base[q+1][4] && !slices.Equal(base[r+1], base[q+1]) {
						a, b = r, q
					}
				}
			}
			edits := []struct {
				name   string
				edit   func(cells [][]string)
				edited []int       // test rows whose own inputs changed
				moved  map[int]int // file row -> where the edit moved it
			}{
				{"a category shown first by a test row", func(c [][]string) { c[test[first]+1][colour] = "violet" }, []int{test[first]}, nil},
				{"a category no training row holds", func(c [][]string) { c[test[1]+1][colour] = "teal" }, []int{test[1]}, nil},
				{"numeric values", func(c [][]string) { c[test[2]+1][x0], c[test[2]+1][x1] = "1e6", "-1e6" }, []int{test[2]}, nil},
				{"missing cells", func(c [][]string) { c[test[3]+1][x1], c[test[3]+1][colour] = "?", "?" }, []int{test[3]}, nil},
				{"two test rows swapped", func(c [][]string) { c[a+1], c[b+1] = c[b+1], c[a+1] }, nil, map[int]int{a: b, b: a}},
			}
			for _, e := range edits {
				if e.name == "missing cells" && p.o.Missing != protocol.MissingImpute {
					continue // the row would be dropped, and the folds drawn anew
				}
				cells := make([][]string, len(base))
				for i, row := range base {
					cells[i] = slices.Clone(row)
				}
				e.edit(cells)
				got := runFold(t, p.proto, p.o, readLeakCSV(t, cells))
				if !slices.EqualFunc(got.schema.Features, want.schema.Features, func(x, y learn.Feature) bool {
					return x.Name == y.Name && x.Nominal == y.Nominal && slices.Equal(x.Categories, y.Categories)
				}) {
					t.Errorf("%s: the schema changed: %v, was %v", e.name, got.schema.Features, want.schema.Features)
				}
				if !slices.Equal(got.ytr, want.ytr) || !slices.EqualFunc(got.xtr, want.xtr, sameBits) {
					t.Errorf("%s: the training inputs changed", e.name)
				}
				for _, r := range test {
					if slices.Contains(e.edited, r) {
						continue
					}
					at := r
					if m, ok := e.moved[r]; ok {
						at = m
					}
					if !sameBits(got.test[at], want.test[r]) {
						t.Errorf("%s: the inputs of test row %d changed: %v, were %v", e.name, r, got.test[at], want.test[r])
					}
					for name, pred := range want.pred {
						if got.pred[name][at] != pred[r] {
							t.Errorf("%s: %s's prediction of test row %d changed: %d, was %d", e.name, name, r, got.pred[name][at], pred[r])
						}
					}
				}
			}
		})
	}
}
