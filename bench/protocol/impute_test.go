package protocol

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// incomplete builds a dataset whose numeric column x1 and nominal column
// colour have missing cells (x0 is complete).
func incomplete(n int) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(5, 6))
	d := &datasets.Dataset{Name: "holes", Classes: []string{"a", "b"}}
	d.Inputs = []datasets.Attribute{
		{Name: "x0", Type: "real", Min: math.NaN(), Max: math.NaN()},
		{Name: "x1", Type: "real", Min: math.NaN(), Max: math.NaN()},
		{Name: "colour", Type: "nominal", Domain: []string{"red", "green", "blue"}, Min: math.NaN(), Max: math.NaN()},
	}
	for i := 0; i < n; i++ {
		c := i % 2
		row := []float64{rng.NormFloat64() + float64(c), 50 + 10*rng.Float64(), float64(rng.IntN(3))}
		if i%7 == 3 {
			row[1] = math.NaN()
		}
		if i%11 == 4 {
			row[2] = math.NaN()
		}
		d.X = append(d.X, row)
		d.Y = append(d.Y, c)
	}
	return d
}

// clone copies a dataset's rows, so that a test can change cells.
func clone(d *datasets.Dataset) *datasets.Dataset {
	c := *d
	c.X = make([][]float64, len(d.X))
	for i, row := range d.X {
		c.X[i] = append([]float64(nil), row...)
	}
	return &c
}

// trainingStats are the mean of x1 and the most frequent colour code
// (smallest on ties) of the given rows.
func trainingStats(d *datasets.Dataset, rows []int) (mean float64, mode int) {
	sum, n := 0.0, 0
	counts := make([]int, 3)
	for _, r := range rows {
		if v := d.X[r][1]; !math.IsNaN(v) {
			sum += v
			n++
		}
		if v := d.X[r][2]; !math.IsNaN(v) {
			counts[int(v)]++
		}
	}
	for c := range counts {
		if counts[c] > counts[mode] {
			mode = c
		}
	}
	return sum / float64(n), mode
}

func imputeOptions() Options {
	o := DefaultOptions()
	o.Missing = MissingImpute
	o.InnerFolds = 3
	return o
}

// TestCleanImputesFromTheTrainingFold: every row is kept, a missing cell
// takes the training fold's mean (numeric) or mode (nominal), also in the
// test rows, and the value is the one of the training rows alone.
func TestCleanImputesFromTheTrainingFold(t *testing.T) {
	d := incomplete(150)
	p, err := Clean{}.Plan(d, imputeOptions())
	if err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, n := range d.MissingByColumn() {
		cells += n
	}
	if p.Rows != 150 || p.Dropped != 0 || p.Imputed != cells || cells == 0 {
		t.Fatalf("plan uses %d rows, drops %d, imputes %d cells; want 150, 0, %d", p.Rows, p.Dropped, p.Imputed, cells)
	}
	for _, f := range p.Folds {
		train := append([]int(nil), f.view.train...)
		mean, mode := trainingStats(d, train)
		xtr, xte := f.Matrices(nil)
		for part, rows := range [][]int{f.view.train, f.view.test} {
			x := [][][]float64{xtr, xte}[part]
			for i, r := range rows {
				if math.IsNaN(d.X[r][1]) {
					if got := f.Unscale(1, x[i][1]); math.Abs(got-mean) > 1e-9*math.Abs(mean) {
						t.Fatalf("fold %d row %d: x1 imputed as %v, training mean %v", f.Index, r, got, mean)
					}
				}
				if math.IsNaN(d.X[r][2]) && x[i][2] != float64(mode) {
					t.Fatalf("fold %d row %d: colour imputed as %v, training mode %d", f.Index, r, x[i][2], mode)
				}
			}
		}
	}
}

// TestImputeIgnoresTestRows injects the fault a leak would expose: the
// test rows' values (and inner test rows' values) change wildly, and
// nothing the learner trains on, nor any imputed test cell, may change. A
// change of the training rows' values must change the imputed cells (the
// check can fail).
func TestImputeIgnoresTestRows(t *testing.T) {
	d := incomplete(150)
	o := imputeOptions()
	base, err := Clean{}.Plan(d, o)
	if err != nil {
		t.Fatal(err)
	}
	// distort sets every value of rows (x1 and colour) to an outlier.
	distort := func(rows []int) *datasets.Dataset {
		c := clone(d)
		for _, r := range rows {
			if !math.IsNaN(c.X[r][1]) {
				c.X[r][1] = 1e6
			}
			if !math.IsNaN(c.X[r][2]) {
				c.X[r][2] = 2
			}
		}
		return c
	}
	for k, f := range base.Folds[:2] {
		xtr, xte := f.Matrices(nil)
		leaky, err := Clean{}.Plan(distort(f.view.test), o)
		if err != nil {
			t.Fatal(err)
		}
		g := leaky.Folds[k]
		ytr, yte := g.Matrices(nil)
		if !reflect.DeepEqual(xtr, ytr) {
			t.Errorf("fold %d: changing the test rows changed the training rows the learner sees", k)
		}
		for i, r := range f.view.test {
			if math.IsNaN(d.X[r][1]) && xte[i][1] != yte[i][1] || math.IsNaN(d.X[r][2]) && xte[i][2] != yte[i][2] {
				t.Errorf("fold %d: changing the test rows changed the imputed cells of test row %d", k, r)
			}
		}

		// Inner folds: the imputer of inner fold 0 is fitted on its
		// training rows only.
		var itr, ite []int
		for i, g := range f.InnerFold {
			if g == 0 {
				ite = append(ite, i)
			} else {
				itr = append(itr, i)
			}
		}
		in, _ := f.Rescale(itr, ite, nil)
		in = copyRows(in)
		rows := make([]int, len(ite))
		for i, p := range ite {
			rows[i] = f.view.train[p]
		}
		innerLeak, err := Clean{}.Plan(distort(rows), o)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := innerLeak.Folds[k].Rescale(itr, ite, nil)
		if !reflect.DeepEqual(in, out) {
			t.Errorf("fold %d: changing inner fold 0's test rows changed its training rows", k)
		}

		// The control: the training rows' values do move the imputed
		// cells.
		moved, err := Clean{}.Plan(distort(f.view.train[:len(f.view.train)/2]), o)
		if err != nil {
			t.Fatal(err)
		}
		_, mte := moved.Folds[k].Matrices(nil)
		same := true
		for i, r := range f.view.test {
			if math.IsNaN(d.X[r][1]) && f.Unscale(1, xte[i][1]) != moved.Folds[k].Unscale(1, mte[i][1]) {
				same = false
			}
		}
		if same {
			t.Errorf("fold %d: changing training rows left every imputed test cell alone; the test above cannot fail", k)
		}
	}
}

func copyRows(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i, row := range x {
		out[i] = append([]float64(nil), row...)
	}
	return out
}

// TestHoldoutImputesFromTheScalersPart: under impute the holdout split
// keeps every row and fills missing cells from the 64 % part only:
// changing the validation and test rows changes no imputed value of the
// 64 % part and no imputed test cell.
func TestHoldoutImputesFromTheScalersPart(t *testing.T) {
	d := incomplete(150)
	o := imputeOptions()
	base, err := Holdout{}.Plan(d, o)
	if err != nil {
		t.Fatal(err)
	}
	if base.Rows != 150 || base.Dropped != 0 || base.Imputed == 0 {
		t.Fatalf("holdout plan: %d rows, %d dropped, %d imputed", base.Rows, base.Dropped, base.Imputed)
	}
	f := base.Folds[0]
	nFit := 0
	for _, g := range f.InnerFold {
		if g == 1 {
			nFit++
		}
	}
	// The source rows of the validation and test parts.
	src := map[int]bool{}
	for _, r := range f.TestRows {
		src[r] = true
	}
	stackedSrc := holdoutSources(t, d)
	for _, r := range stackedSrc[nFit:] {
		src[r] = true
	}
	c := clone(d)
	for r := range src {
		if !math.IsNaN(c.X[r][1]) {
			c.X[r][1] = 1e6
		}
	}
	leaky, err := Holdout{}.Plan(c, o)
	if err != nil {
		t.Fatal(err)
	}
	g := leaky.Folds[0]
	if !reflect.DeepEqual(f.XTrain[:nFit], g.XTrain[:nFit]) {
		t.Error("changing the validation and test rows changed the 64 % part's rows")
	}
	for i, r := range f.TestRows {
		if math.IsNaN(d.X[r][1]) && f.XTest[i][1] != g.XTest[i][1] {
			t.Errorf("changing the test rows changed the imputed cell of test row %d", r)
		}
	}
	for _, row := range append(append([][]float64{}, f.XTrain...), f.XTest...) {
		for _, v := range row {
			if math.IsNaN(v) {
				t.Fatal("a missing cell reached the holdout fold")
			}
		}
	}
}

// holdoutSources is the source row of each stacked row of the holdout
// protocol under impute (the loader's split of every row).
func holdoutSources(t *testing.T, d *datasets.Dataset) []int {
	t.Helper()
	o := paperprep.PaperOptions()
	o.Impute = true
	p, err := paperprep.PrepareWith(d, o)
	if err != nil {
		t.Fatal(err)
	}
	return p.SrcRow
}

// TestDropIsTheDefault: drop, spelled or not, builds the plan of the
// default options, and error builds it too (the runner refuses data with
// missing cells before any plan).
func TestDropIsTheDefault(t *testing.T) {
	d := incomplete(150)
	for _, name := range Names() {
		p, _ := Lookup(name)
		want, err := p.Plan(d, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if want.Dropped != len(d.MissingRows()) || want.Rows != 150-want.Dropped {
			t.Errorf("%s: drops %d and uses %d rows; want %d and %d", name, want.Dropped, want.Rows, len(d.MissingRows()), 150-len(d.MissingRows()))
		}
		for _, policy := range []string{MissingDrop, MissingError} {
			o := DefaultOptions()
			o.Missing = policy
			got, err := p.Plan(d, o)
			if err != nil || !samePlan(got, want) {
				t.Errorf("%s with missing %s: %v; want the default plan", name, policy, err)
			}
		}
	}
	if _, err := NormalizeMissing("mean"); err == nil || !strings.Contains(err.Error(), "drop, impute, error") {
		t.Errorf("unknown policy: %v", err)
	}
	o := DefaultOptions()
	o.Missing = "mean"
	if err := o.Validate(); err == nil {
		t.Error("options with an unknown policy validate")
	}
}
