// Package paperprep reproduces the FGRT paper's data preparation bit for bit
// (docs/protocols.md#paper-preprocessing and #paper-splits): drop rows
// with a missing input, factorize nominal inputs by first appearance, two
// stratified train_test_split calls with random_state 33 (64/16/20), a
// StandardScaler fitted on the 64% part for the numeric columns, the integer-matrix truncation pandas causes when every input
// column is integer typed, the three parts stacked back (train, validation,
// test), and StratifiedKFold(5, shuffle=True, random_state=42) on the
// stacked rows.
//
// The pieces are exported (Split, Folds, IntegerMatrix, PrepareWith with an
// Options value) so a clean protocol can reuse the exact splitting without
// the paper's leakage choices.
package paperprep

import (
	"errors"
	"fmt"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/impute"
	"github.com/fgrtbench/fgrtbench/internal/sksplit"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Options parameterise the preparation. PaperOptions returns the authors'
// values; the zero value is not valid.
type Options struct {
	// TrainProportion is the share kept by the first split; its test size is
	// computed as 1 - TrainProportion in float64 (0.19999999999999996 for
	// 0.8), exactly as the authors' code does.
	TrainProportion float64
	// ValTestSize is the test_size of the second split (0.2).
	ValTestSize float64
	// SplitSeed is the random_state of both train_test_split calls (33).
	SplitSeed uint32
	// K and FoldSeed configure the StratifiedKFold on the stacked rows (5, 42).
	K        int
	FoldSeed uint32
	// Truncate applies the pandas int64 truncation of scaled values when
	// every input column is integer typed (the authors' quirk). A clean
	// protocol turns it off.
	Truncate bool
	// Impute keeps the rows with a missing input and fills each missing
	// cell with the mean (numeric) or most frequent first-appearance code
	// (nominal) of the 64 % part, the rows the scaler is fitted on, before
	// scaling (missing-value policy impute of the holdout protocol). The
	// authors dropped those rows: PaperOptions leaves it off.
	Impute bool
	// CodeParts, when not 0, derives the nominal codes from training rows
	// only: first appearance among the first CodeParts parts of the
	// stacked split (1: the 64 % part; 2: the 64 % and 16 % parts), in
	// stacked order, a category those rows never hold taking the code after
	// theirs (datasets.Coding). 0 is the authors' factorize of the whole
	// file, whose codes a test row can decide.
	CodeParts int
}

// PaperOptions returns the authors' settings.
func PaperOptions() Options {
	return Options{TrainProportion: 0.8, ValTestSize: 0.2, SplitSeed: 33, K: 5, FoldSeed: 42, Truncate: true}
}

// Prepared is the stacked, preprocessed dataset and its fold assignment.
type Prepared struct {
	// X holds the stacked rows: first NTrain rows (the scaler's fitting
	// set), then NVal validation rows, then NTest test rows.
	X [][]float64
	Y []int
	// SrcRow[r] is the 0-based index, among ALL data rows of the source file
	// (dropped rows included), of stacked row r.
	SrcRow []int
	// Fold[r] is the test fold of stacked row r.
	Fold []int
	// Categorical[j] reports whether input j is nominal (first-appearance codes, unscaled).
	Categorical []bool
	// Schema names nominal codes by first-appearance order and the classes
	// by the header's class list.
	Schema learn.Schema
	// NTrain, NVal, NTest are the sizes of the 64/16/20 parts.
	NTrain, NVal, NTest int
	// Dropped lists the source rows removed for a missing input.
	Dropped []int
	// Imputed is the number of missing cells filled (Options.Impute).
	Imputed int
	// Truncated reports whether the integer-matrix truncation was applied.
	Truncated bool
	// Scaler is the fitted scaler (nil when no column is numeric).
	Scaler *sksplit.StandardScaler
	// Notes are human-readable facts about the preparation.
	Notes []string
	// FoldsNote is the note of Notes that concerns the K-fold split ("" when
	// there is none), which a protocol that does not use the folds omits.
	FoldsNote string
}

// Prepare runs the paper's preprocessing on d with PaperOptions.
func Prepare(d *datasets.Dataset) (*Prepared, error) {
	return PrepareWith(d, PaperOptions())
}

// IntegerMatrix reports whether pandas would hold the input matrix as int64:
// every input is nominal (factorize codes) or a numeric column written only
// with integer literals. Attribute.IntegerLiterals is computed over all
// non-missing cells of the file, dropped rows included; for the ten KEEL
// files this equals the rule over the kept rows.
func IntegerMatrix(inputs []datasets.Attribute) bool {
	for _, a := range inputs {
		if !a.Nominal() && !a.IntegerLiterals {
			return false
		}
	}
	return len(inputs) > 0
}

// Split is the two-stage stratified split of docs/protocols.md#paper-splits: the
// first train_test_split (test size 1 - trainProportion) and the second on
// its training part (test size valTestSize), both with seed. rowOrder lists,
// for every stacked row, its position in y: the second split's train part,
// its test part (validation), then the first split's test part.
func Split(y []int, trainProportion, valTestSize float64, seed uint32) (rowOrder []int, nTrain, nVal, nTest int, err error) {
	one := 1.0
	tr1, te1, err := sksplit.TrainTestSplit(y, one-trainProportion, seed)
	if err != nil {
		return nil, 0, 0, 0, fmt.Errorf("first split: %w", err)
	}
	ytv := make([]int, len(tr1))
	for i, r := range tr1 {
		ytv[i] = y[r]
	}
	tr2, te2, err := sksplit.TrainTestSplit(ytv, valTestSize, seed)
	if err != nil {
		return nil, 0, 0, 0, fmt.Errorf("second split: %w", err)
	}
	rowOrder = make([]int, 0, len(y))
	for _, p := range tr2 {
		rowOrder = append(rowOrder, tr1[p])
	}
	for _, p := range te2 {
		rowOrder = append(rowOrder, tr1[p])
	}
	rowOrder = append(rowOrder, te1...)
	return rowOrder, len(tr2), len(te2), len(te1), nil
}

// Folds is StratifiedKFold(k, shuffle=True, random_state=seed): the test
// fold of every row of y.
func Folds(y []int, k int, seed uint32) ([]int, error) {
	return sksplit.StratifiedKFold(y, k, true, seed)
}

// PrepareWith runs the preprocessing with explicit options.
func PrepareWith(d *datasets.Dataset, o Options) (*Prepared, error) {
	if d == nil {
		return nil, errors.New("paperprep: nil dataset")
	}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("paperprep: %w", err)
	}
	if !(o.TrainProportion > 0 && o.TrainProportion < 1) || !(o.ValTestSize > 0 && o.ValTestSize < 1) || o.K < 2 || o.CodeParts < 0 || o.CodeParts > 2 {
		return nil, fmt.Errorf("paperprep: invalid options %+v", o)
	}
	complete, kept, dropped := usedRows(d, o.Impute)
	if complete.Rows() == 0 {
		return nil, fmt.Errorf("paperprep: %s has no row without missing inputs", d.Name)
	}
	order, nTrain, nVal, nTest, err := Split(complete.Y, o.TrainProportion, o.ValTestSize, o.SplitSeed)
	if err != nil {
		return nil, fmt.Errorf("paperprep: %s: %w", d.Name, err)
	}
	codes, categories := complete.FirstAppearanceCodes()
	if o.CodeParts > 0 {
		n := nTrain
		if o.CodeParts == 2 {
			n += nVal
		}
		codes, categories = trainingCodes(complete, order[:n])
	}
	p := &Prepared{NTrain: nTrain, NVal: nVal, NTest: nTest, Dropped: dropped}
	p.arrange(complete, codes, kept, order)
	numeric := p.describe(d, categories)
	if o.Impute {
		if err := p.impute(d, categories); err != nil {
			return nil, fmt.Errorf("paperprep: %s: %w", d.Name, err)
		}
	}
	if len(numeric) > 0 {
		if err := p.scale(numeric, o.Truncate && IntegerMatrix(d.Inputs)); err != nil {
			return nil, fmt.Errorf("paperprep: %s: %w", d.Name, err)
		}
	}
	// The reference's matrix is int64 whenever every input is integer
	// typed, with or without a numeric column to truncate (zoo).
	p.Schema.IntegerMatrix = o.Truncate && IntegerMatrix(d.Inputs)

	p.Fold, err = Folds(p.Y, o.K, o.FoldSeed)
	if err != nil {
		return nil, fmt.Errorf("paperprep: %s: %w", d.Name, err)
	}
	p.note(d, o.K)
	return p, nil
}

// trainingCodes is d's rows coded by first appearance among rows train
// (indices into d, in the order given) and the categories in code order.
func trainingCodes(d *datasets.Dataset, train []int) ([][]float64, [][]string) {
	c := d.FitCoding(train, false)
	width := len(d.Inputs)
	out := make([][]float64, len(d.X))
	flat := make([]float64, len(d.X)*width)
	for i, row := range d.X {
		out[i] = flat[i*width : (i+1)*width : (i+1)*width]
		c.Apply(out[i], row)
	}
	categories := make([][]string, width)
	for j := range categories {
		categories[j] = c.Labels(j)
	}
	return out, categories
}

// usedRows are the rows the preparation uses: every row when missing
// cells are imputed, else the complete ones (kept are their indices in d,
// dropped the others').
func usedRows(d *datasets.Dataset, impute bool) (used *datasets.Dataset, kept, dropped []int) {
	if impute {
		kept = make([]int, d.Rows())
		for i := range kept {
			kept[i] = i
		}
		return d, kept, nil
	}
	used, kept = d.CompleteRows()
	return used, kept, d.MissingRows()
}

// arrange lays the complete rows out in the split's order (training,
// validation, test), coded, in one flat backing array.
func (p *Prepared) arrange(complete *datasets.Dataset, codes [][]float64, kept, order []int) {
	width := len(complete.Inputs)
	p.X = make([][]float64, len(order))
	p.Y = make([]int, len(order))
	p.SrcRow = make([]int, len(order))
	flat := make([]float64, len(order)*width)
	for r, i := range order {
		p.X[r] = flat[r*width : (r+1)*width : (r+1)*width]
		copy(p.X[r], codes[i])
		p.Y[r] = complete.Y[i]
		p.SrcRow[r] = kept[i]
	}
}

// describe sets the schema and the categorical mask from d's inputs and
// returns the numeric columns.
func (p *Prepared) describe(d *datasets.Dataset, categories [][]string) (numeric []int) {
	width := len(d.Inputs)
	p.Categorical = make([]bool, width)
	p.Schema = learn.Schema{Features: make([]learn.Feature, width), Classes: append([]string(nil), d.Classes...)}
	for j, a := range d.Inputs {
		p.Categorical[j] = a.Nominal()
		p.Schema.Features[j] = learn.Feature{Name: a.Name, Nominal: a.Nominal()}
		if a.Nominal() {
			p.Schema.Features[j].Categories = append([]string(nil), categories[j]...)
		} else {
			numeric = append(numeric, j)
		}
	}
	return numeric
}

// impute fills missing cells with the mean or mode of the training part
// (the scaler's rows).
func (p *Prepared) impute(d *datasets.Dataset, categories [][]string) error {
	width := len(d.Inputs)
	levels, names := make([]int, width), make([]string, width)
	for j, a := range d.Inputs {
		names[j] = a.Name
		if a.Nominal() {
			levels[j] = max(1, len(categories[j]))
		}
	}
	imp := impute.New(p.X, levels, names)
	if imp == nil {
		return nil
	}
	train := make([]int, p.NTrain)
	for i := range train {
		train[i] = i
	}
	if err := imp.Check(train, nil); err != nil {
		return err
	}
	fill := imp.Fit(p.X[:p.NTrain])
	for _, row := range p.X {
		impute.Row(row, row, fill)
	}
	p.Imputed = imp.Cells()
	return nil
}

// scale standardises the numeric columns on the training part and, when
// truncate, truncates the z-scores toward zero as assigning float64 values
// into pandas' int64 matrix does.
func (p *Prepared) scale(numeric []int, truncate bool) error {
	sc := &sksplit.StandardScaler{}
	if err := sc.Fit(p.X[:p.NTrain], numeric); err != nil {
		return err
	}
	if err := sc.TransformInPlace(p.X); err != nil {
		return err
	}
	p.Scaler = sc
	if truncate {
		for _, row := range p.X {
			for _, j := range numeric {
				row[j] = float64(int64(row[j]))
			}
		}
		p.Truncated = true
	}
	return nil
}

// note records what the preparation did to the data, in the order the
// report lists it.
func (p *Prepared) note(d *datasets.Dataset, k int) {
	if len(p.Dropped) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("dropped %d of %d rows with a missing input (file order kept)", len(p.Dropped), d.Rows()))
	}
	if p.Imputed > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d missing cells imputed with the mean (numeric) or mode (nominal) of the scaler's 64 %% part", p.Imputed))
	}
	if p.Truncated {
		p.Notes = append(p.Notes, "all inputs are integer typed: scaled values truncated toward zero (pandas int64 matrix), as in the authors' run")
	}
	if sksplit.FewerThanK(p.Y, k) {
		p.FoldsNote = fmt.Sprintf("a class has fewer than %d rows: some folds lack it (sklearn warns)", k)
		p.Notes = append(p.Notes, p.FoldsNote)
	}
}
