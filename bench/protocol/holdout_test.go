package protocol

import (
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

func TestLayouts(t *testing.T) {
	o := DefaultOptions()
	o.Repeats, o.Seed, o.Folds = 3, 7, 4
	o64 := o
	o64.HoldoutTrain = HoldoutTrain64
	cases := []struct {
		p    Protocol
		o    Options
		want Layout
	}{
		{Paper{}, o, Layout{Folds: 5, Repeats: 1, Seeds: []int64{42}, GridSelection: SelectTest}},
		{Clean{}, o, Layout{Folds: 4, Repeats: 3, Seeds: []int64{7, 8, 9}, GridSelection: SelectInnerCV, InnerCV: true}},
		{Holdout{}, o, Layout{Folds: 1, Repeats: 3, Seeds: []int64{33, 33, 33}, LearnerRepeats: true, GridSelection: SelectInnerCV, InnerCV: true}},
		{Holdout{}, o64, Layout{Folds: 1, Repeats: 3, Seeds: []int64{33, 33, 33}, LearnerRepeats: true}},
	}
	for _, c := range cases {
		if got := c.p.Layout(c.o); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %+v: layout %+v, want %+v", c.p.Name(), c.o, got, c.want)
		}
	}
	bad := o
	bad.HoldoutTrain = "70"
	if err := bad.Validate(); err == nil {
		t.Error("holdout_train 70 accepted")
	}
}

// TestHoldoutPlan: the hold-out fold is the loader's split, shared by every
// repeat; the validation part marks the inner split.
func TestHoldoutPlan(t *testing.T) {
	d := synthetic(120)
	pp, err := paperprep.Prepare(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, train := range []string{"", HoldoutTrain80, HoldoutTrain64} {
		o := DefaultOptions()
		o.Repeats, o.HoldoutTrain = 3, train
		p, err := Holdout{}.Plan(d, o)
		if err != nil {
			t.Fatal(err)
		}
		nTrain := pp.NTrain + pp.NVal
		if train == HoldoutTrain64 {
			nTrain = pp.NTrain
		}
		if len(p.Folds) != 3 || p.PrepareX != nil || p.Rows != len(pp.X) {
			t.Fatalf("train %q: %d folds, prepare %v, rows %d", train, len(p.Folds), p.PrepareX != nil, p.Rows)
		}
		for r, f := range p.Folds {
			if f.Repeat != r || f.Index != 0 || f.Seed != HoldoutSeed {
				t.Fatalf("fold %d: repeat %d index %d seed %d", r, f.Repeat, f.Index, f.Seed)
			}
			if !reflect.DeepEqual(f.XTrain, pp.X[:nTrain]) || !reflect.DeepEqual(f.YTrain, pp.Y[:nTrain]) ||
				!reflect.DeepEqual(f.XTest, pp.X[pp.NTrain+pp.NVal:]) || !reflect.DeepEqual(f.YTest, pp.Y[pp.NTrain+pp.NVal:]) {
				t.Fatalf("train %q repeat %d: not the loader's split", train, r)
			}
			if train == HoldoutTrain64 {
				if f.InnerFold != nil || p.GridSelection != "" {
					t.Fatal("64 % training has no validation split")
				}
				continue
			}
			val := 0
			for i, g := range f.InnerFold {
				if (g == 0) != (i >= pp.NTrain) {
					t.Fatalf("inner fold of row %d = %d", i, g)
				}
				if g == 0 {
					val++
				}
			}
			if val != pp.NVal || p.InnerK != 1 || p.GridSelection != SelectInnerCV {
				t.Fatalf("validation rows %d, want %d; inner k %d", val, pp.NVal, p.InnerK)
			}
		}
	}
}

// TestHoldoutTestSizesArePaperFGADenominators: every value of the paper's
// FGA column is an exact count on the loader's 20 % part; its denominators
// are the sizes of the holdout protocol's test part.
func TestHoldoutTestSizesArePaperFGADenominators(t *testing.T) {
	mirror := sharedtest.Mirror()
	if mirror == "" {
		t.Skip("KEEL mirror not found (set FGRT_DATA_MIRROR)")
	}
	want := map[string]int{"appendicitis": 22, "hepatitis": 16, "pima": 154, "wine": 36, "zoo": 21,
		"dermatology": 72, "spambase": 920, "ring": 1480, "saheart": 93, "australian": 138}
	for name, n := range want {
		d, err := datasets.ReadKEELFile(filepath.Join(mirror, name+".dat"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := Holdout{}.Plan(d, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got := len(p.Folds[0].XTest); got != n {
			t.Errorf("%s: %d test rows, the paper's FGA column has %d", name, got, n)
		}
	}
}

func TestHoldoutAssignment(t *testing.T) {
	d := synthetic(120)
	pp, _ := paperprep.Prepare(d)
	a, err := Assign(d, "holdout", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	test := 0
	for i, f := range a.Fold {
		if (f == 0) != (i >= pp.NTrain+pp.NVal) || (f != 0 && f != -1) {
			t.Fatalf("row %d: fold %d", i, f)
		}
		if f == 0 {
			test++
		}
	}
	if test != pp.NTest {
		t.Fatalf("%d test rows, want %d", test, pp.NTest)
	}
	o := DefaultOptions()
	o.HoldoutTrain = HoldoutTrain64
	if _, err := Assign(d, "holdout", o); err == nil {
		t.Fatal("64 % export accepted")
	}
}

// TestPlansFollowLayouts: every protocol's plan puts repeat r, fold k at
// index r*Folds+k with the layout's seed, selection and inner folds, which
// is where the runner looks for them.
func TestPlansFollowLayouts(t *testing.T) {
	o := DefaultOptions()
	o.Folds, o.Repeats, o.Seed, o.InnerFolds = 4, 3, 7, 2
	o64 := o
	o64.HoldoutTrain = HoldoutTrain64
	d := synthetic(120)
	for _, opts := range []Options{DefaultOptions(), o, o64} {
		for _, n := range Names() {
			p, _ := Lookup(n)
			plan, err := p.Plan(d, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Layout(opts).Check(plan); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestLayoutCheckRefusesMismatches injects every way a plan can disagree
// with its layout.
func TestLayoutCheckRefusesMismatches(t *testing.T) {
	o := DefaultOptions()
	o.Folds, o.Repeats, o.InnerFolds = 3, 2, 2
	d := synthetic(90)
	l := Clean{}.Layout(o)
	cases := map[string]func(p *Plan){
		"a fold dropped":      func(p *Plan) { p.Folds = p.Folds[:len(p.Folds)-1] },
		"two folds swapped":   func(p *Plan) { p.Folds[0], p.Folds[1] = p.Folds[1], p.Folds[0] },
		"repeats swapped":     func(p *Plan) { p.Folds = append(p.Folds[3:], p.Folds[:3]...) },
		"a seed changed":      func(p *Plan) { p.Folds[4].Seed++ },
		"the selection":       func(p *Plan) { p.GridSelection = SelectTest },
		"inner folds missing": func(p *Plan) { p.Folds[2].InnerFold = nil },
	}
	for name, mutate := range cases {
		plan, err := Clean{}.Plan(d, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Check(plan); err != nil {
			t.Fatalf("unmutated plan: %v", err)
		}
		mutate(plan)
		if err := l.Check(plan); err == nil || !strings.Contains(err.Error(), "disagrees with its layout") {
			t.Errorf("%s: Check returned %v", name, err)
		}
	}
	plan, err := Paper{}.Plan(d, o)
	if err != nil {
		t.Fatal(err)
	}
	plan.Folds[1].InnerFold = []int{0}
	if err := (Paper{}).Layout(o).Check(plan); err == nil {
		t.Error("paper plan with inner folds passed")
	}
}

// TestHoldoutOmitsTheFoldNote: a class too small for five folds is noted
// under the paper protocol, whose folds lack it, but not under holdout,
// which has no folds; the other notes stay.
func TestHoldoutOmitsTheFoldNote(t *testing.T) {
	d := synthetic(120)
	d.Classes = append(d.Classes, "rare")
	for _, i := range []int{3, 30, 60, 90} {
		d.Y[i] = 3
	}
	paper, err := Paper{}.Plan(d, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	holdout, err := Holdout{}.Plan(d, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	fold := "a class has fewer than 5 rows"
	var rest []string
	for _, n := range paper.Notes {
		if !strings.HasPrefix(n, fold) {
			rest = append(rest, n)
		}
	}
	if len(rest) == len(paper.Notes) || len(rest) == 0 {
		t.Fatalf("paper notes %q: want the fold note and another", paper.Notes)
	}
	if !reflect.DeepEqual(holdout.Notes, rest) {
		t.Errorf("holdout notes %q, want %q", holdout.Notes, rest)
	}
}

// TestHoldoutExportCodesAsItsLearnersSee: the holdout export holds the
// codes fitted on the 80 % part, as the plan's rows do, and its ARFF
// files write a category the 80 % part never holds as missing (and do
// not declare its code), which J48 treats as this C4.5 treats the code.
func TestHoldoutExportCodesAsItsLearnersSee(t *testing.T) {
	d := synthetic(120)
	d.Inputs[2].Domain = append(d.Inputs[2].Domain, "violet")
	pp, err := paperprep.Prepare(d)
	if err != nil {
		t.Fatal(err)
	}
	test := pp.SrcRow[pp.NTrain+pp.NVal] // the first row of the 20 % part
	d.X[test][2] = 3                     // violet: in no training row
	plan, err := Holdout{}.Plan(d, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	a, err := Assign(d, "holdout", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	f := plan.Folds[0]
	if got, want := plan.Schema.Features[2].Categories, a.Schema.Features[2].Categories; !slices.Equal(got, want) || len(got) != 3 || slices.Contains(got, "violet") {
		t.Fatalf("categories: plan %v, export %v; want the three training colours", got, want)
	}
	for i, row := range a.X {
		want := f.XTest
		k := i - pp.NTrain - pp.NVal
		if k < 0 {
			want, k = f.XTrain, i
		}
		if row[2] != want[k][2] && !(math.IsNaN(row[2]) && math.IsNaN(want[k][2])) {
			t.Fatalf("row %d: export codes colour %v, the plan %v", i, row[2], want[k][2])
		}
	}
	if f.XTest[0][2] != 3 {
		t.Fatalf("violet coded %v, want 3, the code after the three training colours", f.XTest[0][2])
	}
	var b strings.Builder
	if err := a.WriteARFF(&b, 0, true); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "@attribute colour {0,1,2}\n") {
		t.Errorf("colour's declared codes are not the training ones:\n%s", out[:strings.Index(out, "@data")])
	}
	first := strings.Split(out[strings.Index(out, "@data\n")+6:], "\n")[0]
	if cells := strings.Split(first, ","); cells[2] != "?" {
		t.Errorf("the unseen colour is written %q, want ?", first)
	}
}
