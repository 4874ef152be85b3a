package protocol

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// HoldoutSeed is the random_state of the authors' two train_test_split
// calls, and the seed the holdout protocol records for every repeat.
const HoldoutSeed = 33

// Values of Options.HoldoutTrain.
const (
	// HoldoutTrain80 trains on the 64 % and 16 % parts of the loader split
	// (the 80 % the first train_test_split keeps).
	HoldoutTrain80 = "80"
	// HoldoutTrain64 trains on the 64 % part only (the scaler's rows).
	HoldoutTrain64 = "64"
)

// Holdout evaluates on the authors' loader split as a single hold-out: the
// rows, split and scaler of the paper protocol (complete rows, stratified
// 80/20 then 64/16 with random_state 33,
// a StandardScaler fitted on the 64 % part, the int64 truncation when every
// input is integer typed), training on the 80 % part (or the 64 % part with
// holdout_train 64) and testing once on the 20 % part. This is the split the
// paper's FGA column was measured on (its values are exact counts of that
// test part). Repeats re-run stochastic learners with new seeds on the same
// split; deterministic learners run once. Learners fit their own
// preprocessing (fuzzy partitions) on the training part.
//
// Nominal inputs are coded as the authors' factorize codes them, but on the
// training part alone (the 80 % part, or the 64 % part with holdout_train
// 64), in its stacked order, so that no test row decides a code; a category
// the training part never holds takes the code after its codes
// (docs/protocols.md#nominal-coding).
//
// Under missing-value policy impute the rows with a missing input are
// kept, and each missing cell is filled, before scaling, with the mean
// (numeric) or most frequent code (nominal) of the 64 % part: the rows the
// scaler is fitted on and the grid's candidates are trained on, so no
// validation or test row reaches an imputed value.
//
// Grids are resolved on the loader's validation part: each configuration is
// fitted on the 64 % part and scored on the 16 % part, and the best one is
// refitted on the 80 % part (selection inner-cv with one inner split).
// Training on the 64 % part leaves no validation rows inside the training
// set, so a grid there needs an explicit selection.
type Holdout struct{}

// Name returns "holdout".
func (Holdout) Name() string { return "holdout" }

// Reads: repeats (learner seeds) and holdout_train.
func (Holdout) Reads() []string { return []string{"repeats", "holdout_train", "missing"} }

// Layout: one fold, o.Repeats learner seeds on it, all recorded with seed 33.
func (Holdout) Layout(o Options) Layout {
	l := Layout{Folds: 1, Repeats: o.Repeats, LearnerRepeats: true}
	for r := 0; r < o.Repeats; r++ {
		l.Seeds = append(l.Seeds, HoldoutSeed)
	}
	if o.HoldoutTrain != HoldoutTrain64 {
		l.GridSelection, l.InnerCV = SelectInnerCV, true
	}
	return l
}

// Plan builds the hold-out fold, once per repeat (the repeats share it).
func (h Holdout) Plan(d *datasets.Dataset, o Options) (*Plan, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	po := paperprep.PaperOptions()
	po.Impute = o.Missing == MissingImpute
	po.CodeParts = 2 // the 64 % and 16 % parts
	if o.HoldoutTrain == HoldoutTrain64 {
		po.CodeParts = 1
	}
	p, err := paperprep.PrepareWith(d, po)
	if err != nil {
		return nil, fmt.Errorf("%s: holdout protocol: %w", d.Name, err)
	}
	l := h.Layout(o)
	nTrain := p.NTrain + p.NVal
	if o.HoldoutTrain == HoldoutTrain64 {
		nTrain = p.NTrain
	}
	testFrom := p.NTrain + p.NVal
	plan := &Plan{
		Protocol:      "holdout",
		Dataset:       d.Name,
		Schema:        p.Schema,
		GridSelection: l.GridSelection,
		Rows:          len(p.X),
		Dropped:       len(p.Dropped),
		Imputed:       p.Imputed,
	}
	for _, n := range p.Notes {
		if n != p.FoldsNote { // the 5-fold note does not apply to one split
			plan.Notes = append(plan.Notes, n)
		}
	}
	var inner []int
	if l.InnerCV {
		plan.InnerK = 1
		inner = make([]int, nTrain)
		for i := range inner {
			if i < p.NTrain {
				inner[i] = 1 // fits the candidates
			} // else 0: the validation part scores them
		}
	}
	for r := 0; r < l.Repeats; r++ {
		f := Fold{Repeat: r, Index: 0, Seed: HoldoutSeed,
			XTrain: p.X[:nTrain:nTrain], YTrain: p.Y[:nTrain:nTrain],
			XTest: p.X[testFrom:], YTest: p.Y[testFrom:], InnerFold: inner,
			TestRows: p.SrcRow[testFrom:], Unscale: unscaler(p.Scaler)}
		if err := checkFoldClasses(d.Name, f, len(p.Schema.Classes)); err != nil {
			return nil, err
		}
		plan.Folds = append(plan.Folds, f)
	}
	return plan, nil
}
