package protocol

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// PaperSeed is the fold seed of the authors' StratifiedKFold.
const PaperSeed = 42

// Paper is the authors' protocol, reproduced exactly (docs/protocols.md#paper-protocol):
// complete rows only, nominal inputs as first-appearance codes, the 64/16/20
// split with random_state 33, a StandardScaler fitted on the 64% part, rows
// stacked back, StratifiedKFold(5, shuffle, 42), learners' partitions fitted
// on all rows, grids selected by test accuracy. Options are ignored: the
// paper fixes them (a study refuses missing-value policy impute with the
// paper protocol; see study.Study.Resolve).
type Paper struct{}

// Name returns "paper".
func (Paper) Name() string { return "paper" }

// Reads: nothing; the paper fixes every option.
func (Paper) Reads() []string { return nil }

// Layout: five folds of seed 42, one repeat, grids selected by test
// accuracy, no inner folds.
func (Paper) Layout(Options) Layout {
	return Layout{Folds: 5, Repeats: 1, Seeds: []int64{PaperSeed}, GridSelection: SelectTest}
}

// Plan builds the paper protocol's folds.
func (Paper) Plan(d *datasets.Dataset, _ Options) (*Plan, error) {
	p, err := paperprep.Prepare(d)
	if err != nil {
		return nil, fmt.Errorf("%s: paper protocol: %w", d.Name, err)
	}
	plan := &Plan{
		Protocol:      "paper",
		Dataset:       d.Name,
		Schema:        p.Schema,
		PrepareX:      p.X,
		PrepareY:      p.Y,
		GridSelection: SelectTest,
		Rows:          len(p.X),
		Dropped:       len(p.Dropped),
		Notes:         p.Notes,
	}
	for k := 0; k < 5; k++ {
		xtr, ytr, xte, yte := split(p.X, p.Y, p.Fold, k)
		f := Fold{Repeat: 0, Index: k, Seed: PaperSeed, XTrain: xtr, YTrain: ytr, XTest: xte, YTest: yte,
			TestRows: testRows(p.SrcRow, p.Fold, k), Unscale: unscaler(p.Scaler)}
		if err := checkFoldClasses(d.Name, f, len(p.Schema.Classes)); err != nil {
			return nil, err
		}
		plan.Folds = append(plan.Folds, f)
	}
	return plan, nil
}
