package protocol

import (
	"fmt"
	"math"
	"sync"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/impute"
	"github.com/fgrtbench/fgrtbench/internal/sksplit"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Clean is the leakage-free protocol: stratified k-fold (optionally
// repeated), standardisation fitted on each training fold only, learners'
// own preprocessing fitted inside Fit on the training fold, and grids
// resolved by an inner stratified cross-validation on the training fold.
//
// Rows with missing values are dropped, as in the paper protocol, so that
// the two protocols evaluate the same rows (missing-value policy drop, the
// default). Under policy impute every row is kept and a missing cell is
// filled before scaling with the mean (numeric) or most frequent code
// (nominal) of the rows the scaler is fitted on: each training fold, and
// each inner training fold, so no test row reaches an imputed value.
//
// Nominal inputs are never scaled. A category the file's header declares
// keeps its declared-domain code, which no row decides; the categories the
// header does not declare (every category of a CSV column) are coded per
// fold, by first appearance among the training rows in file order, after
// the declared ones, and a category no training row holds takes the next
// code (docs/protocols.md#nominal-coding). Such a fold carries its own
// schema (Plan.ForFold).
type Clean struct{}

// Name returns "clean".
func (Clean) Name() string { return "clean" }

// Reads: folds, repeats, seed and inner_folds.
func (Clean) Reads() []string { return []string{"folds", "repeats", "seed", "inner_folds", "missing"} }

// Layout: o.Folds folds per repeat, repeat r with fold seed o.Seed + r,
// grids resolved by inner cross-validation.
func (Clean) Layout(o Options) Layout {
	l := Layout{Folds: o.Folds, Repeats: o.Repeats, GridSelection: SelectInnerCV, InnerCV: true}
	for r := 0; r < o.Repeats; r++ {
		l.Seeds = append(l.Seeds, o.Seed+int64(r))
	}
	return l
}

// Plan builds the clean protocol's folds.
func (Clean) Plan(d *datasets.Dataset, o Options) (*Plan, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	full, kept := d, []int(nil) // nil: every row kept, in file order
	imputing := o.Missing == MissingImpute
	if !imputing && len(d.MissingRows()) > 0 {
		full, kept = d.CompleteRows()
	}
	schema := full.Schema()
	plan := &Plan{
		Protocol:      "clean",
		Dataset:       d.Name,
		Schema:        schema,
		GridSelection: SelectInnerCV,
		InnerK:        o.InnerFolds,
		Rows:          len(full.X),
	}
	if dropped := len(d.X) - len(full.X); dropped > 0 {
		plan.Dropped = dropped
		plan.Notes = append(plan.Notes, fmt.Sprintf("%d rows with missing values dropped", dropped))
	}
	var imp *impute.Imputer
	if imputing {
		levels, names := imputeColumns(schema)
		imp = impute.New(full.X, levels, names)
		if imp != nil {
			plan.Imputed = imp.Cells()
			plan.Notes = append(plan.Notes, fmt.Sprintf("%d missing cells imputed with each training fold's mean (numeric) or mode (nominal)", imp.Cells()))
		}
	}
	if len(full.X) < o.Folds {
		return nil, fmt.Errorf("%s: %d complete rows cannot make %d folds", d.Name, len(full.X), o.Folds)
	}
	numeric := numericColumns(schema)
	bound := &absBound{X: full.X}
	perFold := full.FitCoding(nil, true) != nil // undeclared categories to code per fold
	for r := 0; r < o.Repeats; r++ {
		seed := o.Seed + int64(r)
		fold, err := sksplit.StratifiedKFold(full.Y, o.Folds, true, uint32(seed))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		for k := 0; k < o.Folds; k++ {
			nTest := 0
			for _, g := range fold {
				if g == k {
					nTest++
				}
			}
			// Sized exactly: on 10^6 rows, growing by append would
			// allocate about twice the final slices.
			v := &foldView{X: full.X, numeric: numeric, bound: bound, imp: imp, train: make([]int, 0, len(fold)-nTest), test: make([]int, 0, nTest)}
			ytr, yte := make([]int, 0, len(fold)-nTest), make([]int, 0, nTest)
			for i, g := range fold {
				if g == k {
					v.test = append(v.test, i)
					yte = append(yte, full.Y[i])
				} else {
					v.train = append(v.train, i)
					ytr = append(ytr, full.Y[i])
				}
			}
			f := Fold{Repeat: r, Index: k, Seed: seed, YTrain: ytr, YTest: yte, view: v,
				TestRows: testRows(kept, fold, k), Unscale: v.unscale}
			if perFold {
				v.coding = full.FitCoding(v.train, true)
				f.Schema = codedSchema(schema, v.coding)
			}
			if err := checkFoldClasses(d.Name, f, len(schema.Classes)); err != nil {
				return nil, err
			}
			inner, err := sksplit.StratifiedKFold(ytr, o.InnerFolds, true, uint32(seed))
			if err != nil {
				return nil, fmt.Errorf("%s: inner folds of fold %d: %w", d.Name, k, err)
			}
			f.InnerFold = inner
			if err := imp.Check(v.train, inner); err != nil {
				return nil, fmt.Errorf("%s: fold %d of repeat %d: %w", d.Name, k, r, err)
			}
			f.Rescale = func(trainIdx, testIdx []int, buf *Scratch) ([][]float64, func() [][]float64) {
				tr, te := v.compose(trainIdx), v.compose(testIdx)
				sc, fill := v.fit(tr)
				return v.scaled(tr, te, sc, fill, buf)
			}
			plan.Folds = append(plan.Folds, f)
		}
	}
	return plan, nil
}

// imputeColumns describes the schema's columns to impute.New: the number
// of codes of each nominal column (0 for a numeric one) and the names.
func imputeColumns(s learn.Schema) (levels []int, names []string) {
	levels, names = make([]int, len(s.Features)), make([]string, len(s.Features))
	for j, f := range s.Features {
		names[j] = s.FeatureName(j)
		if f.Nominal {
			levels[j] = max(1, len(f.Categories))
		}
	}
	return levels, names
}

// codedSchema is s with each nominal column's categories as c codes them.
func codedSchema(s learn.Schema, c *datasets.Coding) *learn.Schema {
	out := s
	out.Features = append([]learn.Feature(nil), s.Features...)
	for j := range out.Features {
		if out.Features[j].Nominal {
			out.Features[j].Categories = c.Labels(j)
		}
	}
	return &out
}

func numericColumns(s learn.Schema) []int {
	var cols []int
	for j, f := range s.Features {
		if !f.Nominal {
			cols = append(cols, j)
		}
	}
	return cols
}

// foldView is a clean fold as row indices into the plan's unscaled rows.
// Its StandardScaler is fitted on the training rows once, when first
// needed, and shared by every unit that evaluates on the fold.
type foldView struct {
	X           [][]float64 // the plan's complete rows, unscaled, shared
	numeric     []int
	train, test []int // rows of X, in file order
	once        sync.Once
	sc          *sksplit.StandardScaler
	fill        []float64                      // the training rows' imputed values (nil: no imputation)
	unscaleFn   func(j int, v float64) float64 // unscaler(sc), built with it
	bound       *absBound                      // shared by the plan's views
	imp         *impute.Imputer                // nil unless missing cells are imputed
	coding      *datasets.Coding               // the training rows' nominal codes (nil: X's codes)
}

// absBound is the largest magnitude of each column of X (+Inf for a column
// with a NaN or an infinity), computed once per plan, when first needed.
type absBound struct {
	X    [][]float64
	once sync.Once
	max  []float64
}

func (b *absBound) get() []float64 {
	b.once.Do(func() {
		if len(b.X) == 0 {
			return
		}
		b.max = make([]float64, len(b.X[0]))
		for _, row := range b.X {
			for j, v := range row[:len(b.max)] {
				if a := math.Abs(v); !(a <= b.max[j]) { // NaN lands here too
					b.max[j] = a
					if a != a {
						b.max[j] = math.Inf(1)
					}
				}
			}
		}
	})
	return b.max
}

// finite reports whether every scaled value of the fold is provably
// finite without scaling a row: each value is (x - mean) / scale with
// |x| <= the column's largest magnitude, so a bound far below the largest
// float64 leaves room for the two roundings. False means "not proved"
// (the caller then checks row by row), never "not finite".
func (v *foldView) finite() bool {
	max := v.bound.get()
	if len(max) != v.width() {
		return false
	}
	for _, m := range max {
		if m > 1e300 || math.IsNaN(m) {
			return false
		}
	}
	sc, _ := v.prep()
	for c, j := range sc.Cols {
		if j >= len(max) {
			continue
		}
		mean, scale := sc.Mean[c], sc.Scale[c]
		if math.IsNaN(mean) || math.IsInf(mean, 0) || !(scale > 0) || math.IsInf(scale, 0) {
			return false
		}
		if b := (max[j] + math.Abs(mean)) / scale; !(b <= 1e300) {
			return false
		}
	}
	return true
}

func (v *foldView) width() int {
	if len(v.X) == 0 {
		return 0
	}
	return len(v.X[0])
}

// prep is the preprocessing fitted on the fold's training rows: the
// StandardScaler and the imputed values (nil without imputation).
func (v *foldView) prep() (*sksplit.StandardScaler, []float64) {
	v.once.Do(func() { v.sc, v.fill = v.fit(v.train); v.unscaleFn = unscaler(v.sc) })
	return v.sc, v.fill
}

// unscale maps a value of column j from the fold's scaled units back to
// the data's own (Fold.Unscale).
// The inverse is built once per fold, not per call: the readable rules of
// a deep tree map every threshold of its 10^5 nodes through it.
func (v *foldView) unscale(j int, x float64) float64 {
	v.prep()
	return v.unscaleFn(j, x)
}

// fit fits the preprocessing on rows idx of X, recoded by the fold's
// coding: the imputed values when missing cells are imputed, then a
// StandardScaler on the numeric columns of the rows as imputed (a pipeline
// of SimpleImputer and StandardScaler).
func (v *foldView) fit(idx []int) (*sksplit.StandardScaler, []float64) {
	rows := make([][]float64, len(idx))
	for i, r := range idx {
		rows[i] = v.X[r]
	}
	copied := v.coding != nil || v.imp != nil // rows to hold in fresh memory
	if copied {
		w := v.width()
		flat := make([]float64, len(rows)*w)
		for i, row := range rows {
			rows[i] = flat[i*w : (i+1)*w : (i+1)*w]
			v.coding.Apply(rows[i], row)
		}
	}
	fill := v.imp.Fit(rows) // the mode of a nominal column is a code of the fold's
	if fill != nil {
		for _, row := range rows {
			impute.Row(row, row, fill)
		}
	}
	return sksplit.FitScaler(rows, v.numeric), fill
}

// compose maps positions among the training rows to rows of X.
func (v *foldView) compose(pos []int) []int {
	out := make([]int, len(pos))
	for i, p := range pos {
		out[i] = v.train[p]
	}
	return out
}

// scaled returns rows tr of X scaled by sc, in buf's memory when buf is
// not nil (grown as needed and kept for the next call), else in fresh
// memory, and a function that scales rows te the same way into fresh
// memory when first called (later calls return the same rows). A caller
// that fits before it predicts thus holds no test rows while it fits, and
// buf is as large as the largest training part, not a whole fold: the
// test rows take the memory the fit has freed.
func (v *foldView) scaled(tr, te []int, sc *sksplit.StandardScaler, fill []float64, buf *Scratch) (xtr [][]float64, xte func() [][]float64) {
	if buf == nil {
		buf = &Scratch{}
	}
	var test [][]float64
	return v.scaleInto(tr, sc, fill, buf), func() [][]float64 {
		if test == nil {
			test = v.scaleInto(te, sc, fill, &Scratch{})
		}
		return test
	}
}

// scaleInto returns rows idx of X scaled by sc, in buf's memory (grown as
// needed).
func (v *foldView) scaleInto(idx []int, sc *sksplit.StandardScaler, fill []float64, buf *Scratch) [][]float64 {
	w := v.width()
	n := len(idx)
	if cap(buf.flat) < n*w {
		buf.flat = make([]float64, n*w)
	}
	if cap(buf.rows) < n {
		buf.rows = make([][]float64, n)
	}
	flat, rows := buf.flat[:n*w], buf.rows[:n:n]
	for i, r := range idx {
		rows[i] = flat[i*w : (i+1)*w : (i+1)*w]
		scaleRow(rows[i], v.X[r], v.coding, sc, fill)
	}
	return rows
}

// scaleRow writes src scaled by sc into dst: the value
// sksplit.StandardScaler.Transform computes, (x - mean) / scale on the
// scaled columns, the others copied; nominal codes are first recoded by
// coding (when not nil) and then a missing cell is replaced by its
// column's value in fill (when not nil).
func scaleRow(dst, src []float64, coding *datasets.Coding, sc *sksplit.StandardScaler, fill []float64) {
	coding.Apply(dst, src)
	if fill != nil {
		impute.Row(dst, dst, fill)
	}
	for c, j := range sc.Cols {
		if j < len(src) {
			dst[j] = (dst[j] - sc.Mean[c]) / sc.Scale[c]
		}
	}
}
