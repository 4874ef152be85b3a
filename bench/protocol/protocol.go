// Package protocol turns a dataset into the folds a study evaluates on: which
// rows train, which rows test, how they are preprocessed, on which rows a
// learner's own preprocessing (fuzzy partitions) is fitted, and how a
// configuration is chosen from a grid.
//
// Three protocols exist. Paper reproduces the authors' experiment exactly,
// leakage included, so its numbers can be compared with the published ones.
// Clean fits every data-dependent step on training rows only and selects
// hyperparameters by an inner cross-validation, touching each test fold once.
// Holdout is the authors' loader split used as a single hold-out (the split
// the paper's FGA, RIPPER and FRR columns were measured on), repeated over
// learner seeds.
//
// A protocol is data for the runner: its Layout says how many folds and
// repeats it has, which seed each repeat records, whether repeats only
// re-seed the learners, and how grids are resolved.
package protocol

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/sksplit"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Selection rules for choosing one configuration of a grid per fold.
const (
	// SelectFixed: the grid has one point; it is the reported number.
	SelectFixed = "fixed"
	// SelectTest: the configuration with the best TEST accuracy is reported
	// (first in list order on ties) — the authors' optimistic rule.
	SelectTest = "test"
	// SelectInnerCV: the configuration with the best mean accuracy of an
	// inner stratified cross-validation on the training fold is refitted on
	// the whole training fold and evaluated once on the test fold.
	SelectInnerCV = "inner-cv"
	// SelectSweep: every configuration is evaluated on the test fold and
	// reported as its own point (hyperparameter sweeps, ablations); none is
	// marked as selected.
	SelectSweep = "sweep"
)

// Fold is one train/test split, already preprocessed.
//
// The paper and holdout protocols hold the preprocessed rows in XTrain and
// XTest. The clean protocol leaves them nil: its rows are scaled per fold,
// and holding every fold's scaled copy would cost the data's memory once
// per fold. Its folds are index views over the plan's one unscaled matrix,
// scaled when a unit needs them (Matrices) into memory the unit reuses.
// Use Matrices, NTrain and NTest rather than the fields.
type Fold struct {
	Repeat int
	Index  int
	// Seed is the seed of the fold assignment this fold belongs to.
	Seed   int64
	XTrain [][]float64
	YTrain []int
	XTest  [][]float64
	YTest  []int
	// Inner holds the inner folds of the training rows (clean protocol
	// only): InnerFold[i] is the inner test fold of training row i.
	InnerFold []int
	// Rescale refits the protocol's scaling on a subset of the training
	// rows (inner cross-validation) and returns those rows scaled, and a
	// function that returns the test subset scaled (in fresh memory, built
	// at its first call: call it after fitting, as LazyMatrices). buf,
	// when not nil, is scratch memory reused from call to call: the
	// training rows returned live in it until the next call with the same
	// buf. Nil when the protocol does not scale per fold.
	Rescale func(trainIdx, testIdx []int, buf *Scratch) (xtr [][]float64, xte func() [][]float64)
	// TestRows[i] is the 0-based index of test row i among the data rows
	// of the dataset file (dropped rows counted), for the predictions
	// artifact.
	TestRows []int
	// Unscale maps a value of column j from the units the learners see
	// back to the data's own units (the inverse of the protocol's
	// scaling; nil when it does not scale).
	Unscale func(j int, v float64) float64
	// Schema, when not nil, describes this fold's rows instead of the
	// plan's Schema: its nominal codes were fitted on the fold's training
	// rows (a clean fold of a file with undeclared categories). Use
	// Plan.ForFold.
	Schema *learn.Schema

	view *foldView // the clean protocol's unscaled rows; nil otherwise
}

// Scratch is memory for scaled training rows that a worker reuses from
// fold to fold (Fold.LazyMatrices, Fold.Rescale): the values and the row
// slices.
type Scratch struct {
	flat []float64
	rows [][]float64
}

// NTrain is the number of training rows.
func (f *Fold) NTrain() int { return len(f.YTrain) }

// NTest is the number of test rows.
func (f *Fold) NTest() int { return len(f.YTest) }

// Matrices returns the fold's preprocessed training and test rows: XTrain
// and XTest when the protocol holds them, otherwise scaled now (into buf,
// reused as Rescale reuses it, when buf is not nil). Values are those the
// protocol's scaling gives, bit for bit, whichever way they are built.
func (f *Fold) Matrices(buf *Scratch) (xtr, xte [][]float64) {
	xtr, test := f.LazyMatrices(buf)
	return xtr, test()
}

// LazyMatrices is Matrices with the test rows built when test is first
// called (later calls return the same rows): a clean fold's test rows are
// then scaled into fresh memory, so that a caller that fits first holds
// only the training rows (in buf) while it fits, and its fit's working
// memory, freed by then, takes the test rows. Values are Matrices'.
func (f *Fold) LazyMatrices(buf *Scratch) (xtr [][]float64, test func() [][]float64) {
	if f.view == nil {
		return f.XTrain, func() [][]float64 { return f.XTest }
	}
	sc, fill := f.view.prep()
	return f.view.scaled(f.view.train, f.view.test, sc, fill, buf)
}

// ProvablyFinite reports whether every value EachRow would pass is
// finite, proved from column bounds without scaling a row (a clean fold's
// check of 10^6 rows otherwise scales every fold once more). False means
// only that the proof does not apply: check with EachRow.
func (f *Fold) ProvablyFinite() bool {
	return f.view != nil && f.view.finite()
}

// EachRow calls fn with every preprocessed training row, then every test
// row (i counts within its part), until fn returns false. Rows of a clean
// fold are scaled one at a time into one scratch row, so that a check of
// every fold (the runner's finiteness check) costs no fold's memory; fn
// must not keep row.
func (f *Fold) EachRow(fn func(test bool, i int, row []float64) bool) {
	if f.view == nil {
		for i, row := range f.XTrain {
			if !fn(false, i, row) {
				return
			}
		}
		for i, row := range f.XTest {
			if !fn(true, i, row) {
				return
			}
		}
		return
	}
	v := f.view
	sc, fill := v.prep()
	row := make([]float64, v.width())
	for part, idx := range [][]int{v.train, v.test} {
		for i, r := range idx {
			scaleRow(row, v.X[r], v.coding, sc, fill)
			if !fn(part == 1, i, row) {
				return
			}
		}
	}
}

// unscaler inverts a fitted standard scaler (nil for none): x = v·scale + mean.
func unscaler(sc *sksplit.StandardScaler) func(j int, v float64) float64 {
	if sc == nil {
		return nil
	}
	at := map[int]int{}
	for c, j := range sc.Cols {
		at[j] = c
	}
	return func(j int, v float64) float64 {
		if c, ok := at[j]; ok {
			return float64(v*sc.Scale[c]) + sc.Mean[c]
		}
		return v
	}
}

// testRows lists src[i] for the rows i of fold k (i itself when src is
// nil: every row of the file kept, in order).
func testRows(src, fold []int, k int) []int {
	var out []int
	for i, f := range fold {
		if f == k {
			if src == nil {
				out = append(out, i)
			} else {
				out = append(out, src[i])
			}
		}
	}
	return out
}

// Plan is everything a runner needs to evaluate methods on one dataset
// under one protocol.
type Plan struct {
	Protocol string
	Dataset  string
	Schema   learn.Schema
	Folds    []Fold
	// PrepareX and PrepareY are the rows on which learners implementing
	// learn.Preparer fit their own preprocessing before any fold is
	// trained. Nil means "fit it on each training set" (clean).
	PrepareX [][]float64
	PrepareY []int
	// GridSelection is the selection rule for grids of more than one point.
	GridSelection string
	// InnerK is the number of inner folds for SelectInnerCV.
	InnerK int
	// Rows is the number of rows used (after dropping incomplete rows).
	Rows int
	// Dropped is the number of rows of the file left out for a missing
	// input, and Imputed the number of missing cells filled in the rows
	// used (in at least one fold; missing-value policy impute).
	Dropped, Imputed int
	// Notes records facts a reader of the results needs (dropped rows,
	// integer truncation...).
	Notes []string
}

// ForFold returns the plan as fold i's rows see it: p itself, or a copy
// whose Schema is the fold's own (Fold.Schema) when the fold coded its
// nominal columns on its training rows.
func (p *Plan) ForFold(i int) *Plan {
	if i < 0 || i >= len(p.Folds) || p.Folds[i].Schema == nil {
		return p
	}
	q := *p
	q.Schema = *p.Folds[i].Schema
	return &q
}

// Options parameterise a protocol.
type Options struct {
	// Folds is the number of outer folds (paper: 5, fixed).
	Folds int `json:"folds" yaml:"folds"`
	// Repeats is the number of repetitions with different fold seeds
	// (clean only).
	Repeats int `json:"repeats" yaml:"repeats"`
	// Seed is the fold seed of repeat 0 (clean; the paper fixes 42).
	Seed int64 `json:"seed" yaml:"seed"`
	// InnerFolds is the number of inner folds for model selection (clean).
	InnerFolds int `json:"inner_folds" yaml:"inner_folds"`
	// HoldoutTrain is the part of the authors' loader split the holdout
	// protocol trains on: "80" (the 64 % and 16 % parts; the default, also
	// when empty) or "64" (the scaler's part only). Repeats count learner
	// seeds under holdout.
	HoldoutTrain string `json:"holdout_train,omitempty" yaml:"holdout_train,omitempty"`
	// Missing is the missing-value policy: "" (MissingDrop, the default,
	// stored empty so that a study that names it is the same experiment
	// as one that does not), MissingImpute or MissingError.
	Missing string `json:"missing,omitempty" yaml:"missing,omitempty"`
}

// Missing-value policies (Options.Missing).
const (
	// MissingDrop drops every row with a missing input before the split:
	// the authors' choice, and every protocol's default.
	MissingDrop = "drop"
	// MissingImpute keeps every row and fills a missing numeric cell with
	// the mean, and a missing nominal cell with the most frequent code,
	// of the rows the fold's preprocessing is fitted on (clean and holdout
	// protocols only: the paper protocol reproduces the authors' drop).
	MissingImpute = "impute"
	// MissingError refuses a dataset with a missing input cell.
	MissingError = "error"
)

// MissingPolicies lists the policies, default first.
func MissingPolicies() []string { return []string{MissingDrop, MissingImpute, MissingError} }

// NormalizeMissing returns the policy as Options.Missing stores it ("" for
// drop) or an error naming the valid ones.
func NormalizeMissing(policy string) (string, error) {
	switch policy {
	case "", MissingDrop:
		return "", nil
	case MissingImpute, MissingError:
		return policy, nil
	}
	return "", fmt.Errorf("unknown missing-value policy %q (valid: %s)", policy, strings.Join(MissingPolicies(), ", "))
}

// MissingPolicy names the options' policy ("drop" for the default).
func (o Options) MissingPolicy() string {
	if o.Missing == "" {
		return MissingDrop
	}
	return o.Missing
}

// DefaultOptions are the defaults of the clean protocol.
func DefaultOptions() Options {
	return Options{Folds: 5, Repeats: 1, Seed: 42, InnerFolds: 5}
}

// Validate checks the options.
func (o Options) Validate() error {
	if o.Folds < 2 {
		return fmt.Errorf("protocol: folds must be at least 2, got %d", o.Folds)
	}
	if o.Repeats < 1 {
		return fmt.Errorf("protocol: repeats must be at least 1, got %d", o.Repeats)
	}
	if o.InnerFolds < 2 {
		return fmt.Errorf("protocol: inner folds must be at least 2, got %d", o.InnerFolds)
	}
	if o.Seed < 0 || o.Seed > 1<<32-1 {
		return fmt.Errorf("protocol: seed must be in 0..4294967295 (numpy's legacy seed range), got %d", o.Seed)
	}
	switch o.HoldoutTrain {
	case "", HoldoutTrain80, HoldoutTrain64:
	default:
		return fmt.Errorf("protocol: holdout_train must be %q or %q, got %q", HoldoutTrain80, HoldoutTrain64, o.HoldoutTrain)
	}
	switch o.Missing {
	case "", MissingDrop, MissingImpute, MissingError:
	default:
		return fmt.Errorf("protocol: missing must be %s, got %q", strings.Join(MissingPolicies(), ", "), o.Missing)
	}
	return nil
}

// Layout is how a protocol lays out a study's units. The runner reads it
// instead of knowing protocols by name.
type Layout struct {
	// Folds is the number of test folds per repeat.
	Folds int
	// Repeats is the number of repeats.
	Repeats int
	// Seeds[r] is the seed recorded for repeat r (results.csv's seed
	// column): the seed of that repeat's fold assignment.
	Seeds []int64
	// LearnerRepeats reports that repeats share one split and differ only
	// in the learner seed; a deterministic method then runs repeat 0 only.
	LearnerRepeats bool
	// GridSelection resolves grids of more than one point when a method
	// does not choose; "" means the protocol has no default and such a grid
	// needs an explicit selection.
	GridSelection string
	// InnerCV reports whether folds carry inner folds, so that a method may
	// use selection inner-cv.
	InnerCV bool
}

// Check reports whether plan p lays out its folds as l says: the runner
// finds unit (repeat r, fold k) at p.Folds[r*l.Folds+k] and records the
// seed, selection and inner folds the layout declares, so a plan that
// disagreed with its layout would attribute results to the wrong fold,
// seed or rule without any other error.
func (l Layout) Check(p *Plan) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("protocol %s: plan of %s disagrees with its layout: %s", p.Protocol, p.Dataset, fmt.Sprintf(format, a...))
	}
	if len(p.Folds) != l.Folds*l.Repeats || len(l.Seeds) != l.Repeats {
		return fail("%d folds, want %d folds × %d repeats (%d seeds)", len(p.Folds), l.Folds, l.Repeats, len(l.Seeds))
	}
	if p.GridSelection != l.GridSelection {
		return fail("grid selection %q, want %q", p.GridSelection, l.GridSelection)
	}
	for i, f := range p.Folds {
		r, k := i/l.Folds, i%l.Folds
		if f.Repeat != r || f.Index != k || f.Seed != l.Seeds[r] {
			return fail("fold %d is repeat %d fold %d seed %d, want repeat %d fold %d seed %d", i, f.Repeat, f.Index, f.Seed, r, k, l.Seeds[r])
		}
		if (f.InnerFold != nil) != l.InnerCV {
			return fail("fold %d of repeat %d has inner folds %v, want %v", k, r, f.InnerFold != nil, l.InnerCV)
		}
	}
	return nil
}

// Protocol builds plans.
type Protocol interface {
	Name() string
	// Reads lists the JSON names of the Options fields the protocol's
	// Layout and Plan read. It is the one declaration of which options
	// matter: a unit's identity holds only these (so a study that changes
	// another protocol's option keeps this protocol's results), and a spec
	// that sets an option none of its protocols reads is refused.
	Reads() []string
	// Layout returns the unit layout under options o (already validated).
	Layout(o Options) Layout
	Plan(d *datasets.Dataset, o Options) (*Plan, error)
}

// Readers lists, in Names order, the protocols that read an option (JSON
// name).
func Readers(option string) []string {
	var out []string
	for _, name := range Names() {
		p, _ := Lookup(name)
		for _, r := range p.Reads() {
			if r == option {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// Revision is the revision of protocol name's preparation under options o
// on dataset (a registry name or a data file's path;
// identity.Group.ProtocolRevision): it counts the changes that move rows
// the protocol made before, so that a directory of earlier rows is another
// experiment, never resumed or merged with new ones. 0 for a protocol
// never so changed, whose units keep their keys.
//
//   - holdout 1: nominal codes fitted on the training part instead of
//     the whole file (docs/protocols.md#nominal-coding), and the imputed
//     mean summed as scikit-learn sums it.
//   - clean 1 under missing-value policy impute (that mean), and on a CSV
//     file under every policy: a CSV file declares no categories, so its
//     nominal columns are now coded per fold from the training rows. The
//     identity is computed without reading the data, so every CSV file
//     counts, nominal columns or not; KEEL and ARFF files declare their
//     categories, whose codes did not change.
func Revision(name string, o Options, dataset string) int {
	switch {
	case name == "holdout":
		return 1
	case name == "clean" && o.Missing == MissingImpute:
		return 1
	case name == "clean" && strings.EqualFold(filepath.Ext(dataset), ".csv"):
		return 1
	}
	return 0
}

// Names lists the protocols.
func Names() []string { return []string{"paper", "clean", "holdout"} }

// Lookup returns a protocol by name.
func Lookup(name string) (Protocol, error) {
	switch name {
	case "paper":
		return Paper{}, nil
	case "clean":
		return Clean{}, nil
	case "holdout":
		return Holdout{}, nil
	}
	return nil, fmt.Errorf("unknown protocol %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// split gathers rows of X and y by fold membership.
func split(X [][]float64, y []int, fold []int, k int) (xtr [][]float64, ytr []int, xte [][]float64, yte []int) {
	for i, f := range fold {
		if f == k {
			xte = append(xte, X[i])
			yte = append(yte, y[i])
		} else {
			xtr = append(xtr, X[i])
			ytr = append(ytr, y[i])
		}
	}
	return
}

// checkFoldClasses reports a fold whose training part misses a class that
// its test part has, or whose either part is empty.
func checkFoldClasses(dataset string, f Fold, nClasses int) error {
	if f.NTrain() == 0 || f.NTest() == 0 {
		return fmt.Errorf("%s: fold %d of repeat %d has %d training and %d test rows; need fewer folds or more rows", dataset, f.Index, f.Repeat, f.NTrain(), f.NTest())
	}
	return nil
}
