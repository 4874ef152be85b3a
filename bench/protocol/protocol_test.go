package protocol

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/internal/sksplit"
)

// synthetic builds a dataset with numeric and nominal inputs, a few
// missing cells and three classes.
func synthetic(n int) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(11, 12))
	d := &datasets.Dataset{Name: "synth", Classes: []string{"a", "b", "c"}}
	d.Inputs = []datasets.Attribute{
		{Name: "x0", Type: "real", Min: math.NaN(), Max: math.NaN()},
		{Name: "x1", Type: "real", Min: math.NaN(), Max: math.NaN()},
		{Name: "colour", Type: "nominal", Domain: []string{"red", "green", "blue"}, Min: math.NaN(), Max: math.NaN()},
	}
	for i := 0; i < n; i++ {
		c := i % 3
		row := []float64{10 + 3*rng.NormFloat64() + float64(c), 100 * rng.Float64(), float64(rng.IntN(3))}
		if i%17 == 5 {
			row[1] = math.NaN()
		}
		d.X = append(d.X, row)
		d.Y = append(d.Y, c)
	}
	return d
}

func TestCleanFitsScalingOnTrainingFoldOnly(t *testing.T) {
	d := synthetic(120)
	o := DefaultOptions()
	o.Repeats = 2
	p, err := Clean{}.Plan(d, o)
	if err != nil {
		t.Fatal(err)
	}
	complete := 120 - len(d.MissingRows())
	if p.Rows != complete || len(p.Folds) != 10 || p.GridSelection != SelectInnerCV || p.PrepareX != nil {
		t.Fatalf("plan: rows %d folds %d selection %s prepare %v", p.Rows, len(p.Folds), p.GridSelection, p.PrepareX != nil)
	}
	for _, f := range p.Folds {
		xtrain, xtest := f.Matrices(nil)
		if len(xtrain)+len(xtest) != complete || f.NTrain() != len(xtrain) || f.NTest() != len(xtest) {
			t.Fatalf("fold %d/%d covers %d rows", f.Repeat, f.Index, len(xtrain)+len(xtest))
		}
		// Standardised on the training fold: mean 0 there, nominal codes untouched.
		for _, j := range []int{0, 1} {
			sum := 0.0
			for _, row := range xtrain {
				sum += row[j]
			}
			if m := sum / float64(len(xtrain)); math.Abs(m) > 1e-9 {
				t.Fatalf("fold %d column %d: training mean %v", f.Index, j, m)
			}
		}
		for _, row := range append(append([][]float64{}, xtrain...), xtest...) {
			if v := row[2]; v != 0 && v != 1 && v != 2 {
				t.Fatalf("nominal code %v was scaled", v)
			}
		}
		if len(f.InnerFold) != len(xtrain) || f.Rescale == nil {
			t.Fatal("inner folds missing")
		}
		// Inner rescaling fits on the inner training rows only.
		var tr, te []int
		for i, g := range f.InnerFold {
			if g == 0 {
				te = append(te, i)
			} else {
				tr = append(tr, i)
			}
		}
		xtr, lazy := f.Rescale(tr, te, nil)
		xte := lazy()
		sum := 0.0
		for _, row := range xtr {
			sum += row[0]
		}
		if len(xtr) != len(tr) || len(xte) != len(te) || math.Abs(sum/float64(len(xtr))) > 1e-9 {
			t.Fatal("inner rescaling is not fitted on the inner training rows")
		}
	}
	// Repeats use different fold seeds.
	if p.Folds[0].Seed == p.Folds[5].Seed {
		t.Fatal("repeats share a seed")
	}
}

func TestCleanErrors(t *testing.T) {
	d := synthetic(4)
	if _, err := (Clean{}).Plan(d, DefaultOptions()); err == nil || !strings.Contains(err.Error(), "folds") {
		t.Fatalf("fewer rows than folds: %v", err)
	}
	o := DefaultOptions()
	o.Seed = -1
	if _, err := (Clean{}).Plan(synthetic(60), o); err == nil {
		t.Fatal("negative seed accepted")
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "paper, clean") {
		t.Fatalf("unknown protocol: %v", err)
	}
}

func TestPaperPlanMatchesGoldenFolds(t *testing.T) {
	mirror := sharedtest.Mirror()
	golden := sharedtest.Require(t, "reference/golden/wine_folds.csv")
	if mirror == "" {
		t.Skip("KEEL mirror not found")
	}
	d, err := datasets.ReadKEELFile(filepath.Join(mirror, "wine.dat"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Paper{}.Plan(d, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if p.GridSelection != SelectTest || len(p.PrepareX) != 178 || len(p.Folds) != 5 {
		t.Fatalf("paper plan: %s %d %d", p.GridSelection, len(p.PrepareX), len(p.Folds))
	}
	a, err := Assign(d, "paper", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(golden)
	defer f.Close()
	rows, _ := csv.NewReader(f).ReadAll()
	for i, r := range rows[1:] {
		src, _ := strconv.Atoi(r[0])
		fold, _ := strconv.Atoi(r[len(r)-1])
		if a.Row[i] != src || a.Fold[i] != fold {
			t.Fatalf("row %d: src %d fold %d, golden %d %d", i, a.Row[i], a.Fold[i], src, fold)
		}
	}
	// Each plan fold's test rows are the assignment's rows of that fold.
	for k, fo := range p.Folds {
		n := 0
		for _, g := range a.Fold {
			if g == k {
				n++
			}
		}
		if len(fo.XTest) != n {
			t.Fatalf("fold %d: %d test rows, assignment has %d", k, len(fo.XTest), n)
		}
	}
}

// TestExportRoundTrip writes the fold files and reads the ARFF back with the
// project's own reader: every value and class must survive.
func TestExportRoundTrip(t *testing.T) {
	d := synthetic(60)
	a, err := Assign(d, "clean", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files, err := a.Export(dir, "clean")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1+2*5 {
		t.Fatalf("%d files", len(files))
	}
	var csvBuf bytes.Buffer
	if err := a.WriteCSV(&csvBuf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csvBuf.String()), "\n")
	if lines[0] != "row,fold,x0,x1,colour,class" || len(lines) != len(a.X)+1 {
		t.Fatalf("csv header %q, %d lines", lines[0], len(lines))
	}
	total := 0
	for k := 0; k < 5; k++ {
		path := filepath.Join(dir, fmt.Sprintf("synth-clean-fold%d-test.arff", k))
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		back, err := datasets.ReadARFF(fh, "synth", path, "class")
		fh.Close()
		if err != nil {
			t.Fatalf("reading back %s: %v", path, err)
		}
		var want [][]float64
		var wantY []int
		for i, g := range a.Fold {
			if g == k {
				want = append(want, a.X[i])
				wantY = append(wantY, a.Y[i])
			}
		}
		if len(back.X) != len(want) {
			t.Fatalf("fold %d: %d rows back, want %d", k, len(back.X), len(want))
		}
		for i := range want {
			if back.Classes[back.Y[i]] != a.Schema.ClassName(wantY[i]) {
				t.Fatalf("fold %d row %d: class %s", k, i, back.Classes[back.Y[i]])
			}
			for j := 0; j < 2; j++ {
				if back.X[i][j] != want[i][j] {
					t.Fatalf("fold %d row %d col %d: %v != %v", k, i, j, back.X[i][j], want[i][j])
				}
			}
			if got := back.Inputs[2].Domain[int(back.X[i][2])]; got != strconv.Itoa(int(want[i][2])) {
				t.Fatalf("nominal code %s != %v", got, want[i][2])
			}
		}
		total += len(want)
	}
	if total != len(a.X) {
		t.Fatalf("test folds cover %d of %d rows", total, len(a.X))
	}
}

// TestEveryOptionIsRead: each Options field (by JSON name) is read by at
// least one protocol, and each protocol reads only real fields. A unit's
// identity holds the options its protocol reads, so an option no protocol
// claims would change results without changing any identity.
func TestEveryOptionIsRead(t *testing.T) {
	fields := map[string]bool{}
	typ := reflect.TypeOf(Options{})
	for i := 0; i < typ.NumField(); i++ {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			t.Fatalf("Options.%s has no JSON name: it would be outside every identity", typ.Field(i).Name)
		}
		fields[name] = true
		if len(Readers(name)) == 0 {
			t.Errorf("option %s is read by no protocol's Reads", name)
		}
	}
	for _, n := range Names() {
		p, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Reads() {
			if !fields[r] {
				t.Errorf("protocol %s reads %q, which is no Options field", n, r)
			}
		}
	}
	if got := Readers("repeats"); !reflect.DeepEqual(got, []string{"clean", "holdout"}) {
		t.Errorf("repeats is read by %v", got)
	}
}

// TestUnreadOptionsDoNotMatter: changing an option a protocol does not
// declare in Reads leaves its layout and its folds unchanged, so leaving
// that option out of the protocol's unit identities is safe.
func TestUnreadOptionsDoNotMatter(t *testing.T) {
	base := DefaultOptions()
	change := map[string]func(*Options){
		"folds":         func(o *Options) { o.Folds = 3 },
		"repeats":       func(o *Options) { o.Repeats = 2 },
		"seed":          func(o *Options) { o.Seed = 7 },
		"inner_folds":   func(o *Options) { o.InnerFolds = 3 },
		"holdout_train": func(o *Options) { o.HoldoutTrain = HoldoutTrain64 },
		"missing":       func(o *Options) { o.Missing = MissingImpute },
	}
	d := synthetic(120)
	for _, n := range Names() {
		p, _ := Lookup(n)
		want, err := p.Plan(d, base)
		if err != nil {
			t.Fatal(err)
		}
		for option, mutate := range change {
			if slices.Contains(p.Reads(), option) {
				continue
			}
			o := base
			mutate(&o)
			got, err := p.Plan(d, o)
			if err != nil {
				t.Fatalf("%s with %s changed: %v", n, option, err)
			}
			if !reflect.DeepEqual(p.Layout(o), p.Layout(base)) || !samePlan(got, want) {
				t.Errorf("protocol %s does not declare %s in Reads, but changing it changes its layout or folds", n, option)
			}
		}
	}
	if len(change) != reflect.TypeOf(Options{}).NumField() {
		t.Errorf("the test changes %d options, Options has %d fields", len(change), reflect.TypeOf(Options{}).NumField())
	}
}

func samePlan(a, b *Plan) bool {
	if len(a.Folds) != len(b.Folds) || a.GridSelection != b.GridSelection || a.InnerK != b.InnerK || !reflect.DeepEqual(a.PrepareX, b.PrepareX) {
		return false
	}
	for i := range a.Folds {
		fa, fb := a.Folds[i], b.Folds[i]
		xa, ta := fa.Matrices(nil)
		xb, tb := fb.Matrices(nil)
		if fa.Seed != fb.Seed || !reflect.DeepEqual(xa, xb) || !reflect.DeepEqual(ta, tb) ||
			!reflect.DeepEqual(fa.YTest, fb.YTest) || !reflect.DeepEqual(fa.InnerFold, fb.InnerFold) {
			return false
		}
	}
	return true
}

// TestLazyTestRows: a clean fold's test rows are scaled at the first call
// of the function LazyMatrices and Rescale return (not before: the fit
// runs without them), the same rows on every call, in memory of their own
// (a later use of the scratch buffer leaves them alone), with Matrices'
// values; a protocol that holds its rows returns them as they are.
func TestLazyTestRows(t *testing.T) {
	d := synthetic(150)
	p, err := Clean{}.Plan(d, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var buf Scratch
	for k, f := range p.Folds {
		_, wantTe := f.Matrices(nil)
		xtr, test := f.LazyMatrices(&buf)
		if len(xtr) != f.NTrain() {
			t.Fatalf("fold %d: %d training rows, want %d", k, len(xtr), f.NTrain())
		}
		f.LazyMatrices(&buf) // reuses buf before test rows are built
		first := test()
		if !reflect.DeepEqual(first, wantTe) {
			t.Fatalf("fold %d: lazy test rows differ from Matrices'", k)
		}
		if again := test(); &again[0][0] != &first[0][0] {
			t.Fatalf("fold %d: a second call scaled the test rows again", k)
		}
		f.Rescale([]int{0, 1, 2}, []int{3}, &buf)
		if !reflect.DeepEqual(first, wantTe) {
			t.Fatalf("fold %d: test rows changed when the scratch buffer was reused", k)
		}
	}
	h, err := Paper{}.Plan(d, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	f := h.Folds[0]
	xtr, test := f.LazyMatrices(nil)
	if !reflect.DeepEqual(xtr, f.XTrain) || !reflect.DeepEqual(test(), f.XTest) {
		t.Error("a protocol's own rows are not returned as they are")
	}
}

// TestCleanFoldViewsScaleAsBefore pins the clean protocol's fold views to
// the eager preparation they replace (every fold split and scaled by
// StandardScaler.Transform when the plan was built): the same values bit
// for bit, with and without a reused buffer, for folds, inner rescaling
// and EachRow.
func TestCleanFoldViewsScaleAsBefore(t *testing.T) {
	d := synthetic(150)
	p, err := Clean{}.Plan(d, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	full, _ := d.CompleteRows()
	numeric := numericColumns(p.Schema)
	fold, _ := sksplit.StratifiedKFold(full.Y, 5, true, 42)
	var buf Scratch
	for k, f := range p.Folds {
		rawTr, ytr, rawTe, yte := split(full.X, full.Y, fold, k)
		sc := sksplit.FitScaler(rawTr, numeric)
		wantTr, wantTe := sc.Transform(rawTr), sc.Transform(rawTe)
		for _, b := range []*Scratch{nil, &buf, &buf} {
			xtr, xte := f.Matrices(b)
			if !reflect.DeepEqual(xtr, wantTr) || !reflect.DeepEqual(xte, wantTe) || !reflect.DeepEqual(f.YTrain, ytr) || !reflect.DeepEqual(f.YTest, yte) {
				t.Fatalf("fold %d: scaled rows differ from the eager preparation", k)
			}
		}
		var each [][]float64
		f.EachRow(func(test bool, i int, row []float64) bool {
			if test != (len(each) >= len(wantTr)) {
				t.Fatalf("fold %d: row %d in the wrong part", k, len(each))
			}
			each = append(each, append([]float64(nil), row...))
			return true
		})
		if !reflect.DeepEqual(each, append(append([][]float64{}, wantTr...), wantTe...)) {
			t.Fatalf("fold %d: EachRow differs", k)
		}
		var tr, te []int
		for i, g := range f.InnerFold {
			if g == 1 {
				te = append(te, i)
			} else {
				tr = append(tr, i)
			}
		}
		isc := sksplit.FitScaler(pickRows(rawTr, tr), numeric)
		xtr, lazy := f.Rescale(tr, te, &buf)
		xte := lazy()
		if !reflect.DeepEqual(xtr, isc.Transform(pickRows(rawTr, tr))) || !reflect.DeepEqual(xte, isc.Transform(pickRows(rawTr, te))) {
			t.Fatalf("fold %d: inner rescaling differs from the eager one", k)
		}
	}
}

func pickRows(X [][]float64, idx []int) [][]float64 {
	out := make([][]float64, len(idx))
	for i, j := range idx {
		out[i] = X[j]
	}
	return out
}

// TestProvablyFinite: the bound proves ordinary folds finite (so the
// runner skips scaling them again) and never claims a fold whose scaled
// values overflow or whose inputs are not finite.
func TestProvablyFinite(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(d *datasets.Dataset)
		proof bool
	}{
		{"ordinary", func(*datasets.Dataset) {}, true},
		{"huge magnitudes", func(d *datasets.Dataset) {
			for i := range d.X {
				d.X[i][0] = math.MaxFloat64 * float64(1-2*(i%2))
			}
		}, false},
		{"one infinity", func(d *datasets.Dataset) { d.X[3][0] = math.Inf(1) }, false},
		{"tiny spread, large values", func(d *datasets.Dataset) {
			for i := range d.X {
				d.X[i][0] = 1e300 + float64(i%2)*1e285
			}
		}, false},
	}
	for _, c := range cases {
		d := synthetic(150)
		c.edit(d)
		p, err := Clean{}.Plan(d, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range p.Folds {
			finite := true
			f.EachRow(func(_ bool, _ int, row []float64) bool {
				for _, v := range row {
					finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
				}
				return true
			})
			got := f.ProvablyFinite()
			if got != c.proof || (got && !finite) {
				t.Errorf("%s, fold %d: ProvablyFinite %v (want %v), rows finite %v", c.name, f.Index, got, c.proof, finite)
			}
		}
	}
}
