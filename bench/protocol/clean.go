package protocol

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/sksplit"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Clean is the leakage-free protocol: stratified k-fold (optionally
// repeated), standardisation fitted on each training fold only, learners'
// own preprocessing fitted inside Fit on the training fold, and grids
// resolved by an inner stratified cross-validation on the training fold.
//
// Rows with missing values are dropped, as in the paper protocol, so that
// the two protocols evaluate the same rows; nominal inputs keep their
// declared-domain codes and are never scaled.
type Clean struct{}

// Name returns "clean".
func (Clean) Name() string { return "clean" }

// Reads: folds, repeats, seed and inner_folds.
func (Clean) Reads() []string { return []string{"folds", "repeats", "seed", "inner_folds"} }

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
	full, kept := d.CompleteRows()
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
		plan.Notes = append(plan.Notes, fmt.Sprintf("%d rows with missing values dropped", dropped))
	}
	if len(full.X) < o.Folds {
		return nil, fmt.Errorf("%s: %d complete rows cannot make %d folds", d.Name, len(full.X), o.Folds)
	}
	numeric := numericColumns(schema)
	for r := 0; r < o.Repeats; r++ {
		seed := o.Seed + int64(r)
		fold, err := sksplit.StratifiedKFold(full.Y, o.Folds, true, uint32(seed))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		for k := 0; k < o.Folds; k++ {
			rawTr, ytr, rawTe, yte := split(full.X, full.Y, fold, k)
			sc := sksplit.FitScaler(rawTr, numeric) // standardize, keeping the scaler
			xtr, xte := sc.Transform(rawTr), sc.Transform(rawTe)
			f := Fold{Repeat: r, Index: k, Seed: seed, XTrain: xtr, YTrain: ytr, XTest: xte, YTest: yte,
				TestRows: testRows(kept, fold, k), Unscale: unscaler(sc)}
			if err := checkFoldClasses(d.Name, f, len(schema.Classes)); err != nil {
				return nil, err
			}
			inner, err := sksplit.StratifiedKFold(ytr, o.InnerFolds, true, uint32(seed))
			if err != nil {
				return nil, fmt.Errorf("%s: inner folds of fold %d: %w", d.Name, k, err)
			}
			f.InnerFold = inner
			f.Rescale = func(trainIdx, testIdx []int) ([][]float64, [][]float64) {
				return standardize(pick(rawTr, trainIdx), pick(rawTr, testIdx), numeric)
			}
			plan.Folds = append(plan.Folds, f)
		}
	}
	return plan, nil
}

func pick(X [][]float64, idx []int) [][]float64 {
	out := make([][]float64, len(idx))
	for i, j := range idx {
		out[i] = X[j]
	}
	return out
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

// standardize fits a StandardScaler on the numeric columns of train and
// returns scaled copies of train and test. A constant column gets scale 1,
// as in scikit-learn.
func standardize(train, test [][]float64, numeric []int) ([][]float64, [][]float64) {
	sc := sksplit.FitScaler(train, numeric)
	return sc.Transform(train), sc.Transform(test)
}
