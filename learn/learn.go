// Package learn defines the small contract between learners and the harness.
//
// Learners (package fgrt and the packages under baselines) take plain Go values:
// a row-major float64 matrix, class indices 0..C-1 and a Schema describing the
// columns. They return a Model that predicts, prints its rules and reports its
// complexity. Nothing here knows about datasets, protocols or result files, so
// every learner can be used as a library on its own.
//
// A learner declares itself to the harness with a Spec (spec.go): its name,
// version, typed parameters with bounds and defaults, grids, display name
// and constructor, written once in its own package. Its constructor turns
// the validated values into the learner's typed Config in one step, Decode
// (decode.go), which reads the Config's param tags; DefaultConfig fills it
// from the declared defaults (MustDefaults). Package learntest is the
// conformance suite every learner runs from its own tests.
package learn

import (
	"errors"
	"fmt"
	"math"
)

// Feature describes one input column.
type Feature struct {
	Name string
	// Nominal reports whether the column holds category codes rather than
	// measurements. Codes are stored as float64 integers 0..len(Categories)-1
	// (or whatever integer coding the caller chose; learners must not assume
	// contiguity beyond "distinct values are distinct categories").
	Nominal bool
	// Categories names the codes of a nominal column: Categories[k] is the
	// label of code k. Empty for numeric columns.
	Categories []string
}

// Schema describes the columns and the classes of a training matrix.
type Schema struct {
	Features []Feature
	// Classes names the class indices: Classes[k] is the label of class k.
	Classes []string
	// IntegerMatrix reports that the reference implementation held this
	// matrix as int64 (pandas' dtype when every input column is integer
	// typed; after the paper protocol's scaling the values are truncated
	// integers). Reference-faithful learners use it to emulate integer
	// arithmetic where the reference's code inherited the dtype (FGRT*'s
	// optimiser allocates its membership arrays with np.zeros_like(X)).
	// Other learners ignore it.
	IntegerMatrix bool
}

// NumFeatures returns the number of input columns.
func (s Schema) NumFeatures() int { return len(s.Features) }

// NumClasses returns the number of classes.
func (s Schema) NumClasses() int { return len(s.Classes) }

// NominalMask returns a slice telling, per column, whether it is nominal.
func (s Schema) NominalMask() []bool {
	m := make([]bool, len(s.Features))
	for j, f := range s.Features {
		m[j] = f.Nominal
	}
	return m
}

// FeatureName returns the name of column j, or "x<j>" when it has none.
func (s Schema) FeatureName(j int) string {
	if j >= 0 && j < len(s.Features) && s.Features[j].Name != "" {
		return s.Features[j].Name
	}
	return fmt.Sprintf("x%d", j)
}

// ClassName returns the label of class k, or its index when it has none.
func (s Schema) ClassName(k int) string {
	if k >= 0 && k < len(s.Classes) && s.Classes[k] != "" {
		return s.Classes[k]
	}
	return fmt.Sprintf("%d", k)
}

// Complexity counts what a model asks a reader to understand.
//
// Rules and Antecedents are counted as a reader counts them: one rule per
// leaf (or per rule in a rule list), one antecedent per condition in it.
// Leaves and InternalNodes are the counts the authors' experiment driver
// records for trees (its N_Rules and N_Unique_Conditions columns); rule
// learners report Leaves = Rules and InternalNodes = 0.
type Complexity struct {
	Rules         int
	Antecedents   int
	Leaves        int
	InternalNodes int
}

// MeanAntecedents returns the mean number of antecedents per rule (0 for no rules).
func (c Complexity) MeanAntecedents() float64 {
	if c.Rules == 0 {
		return 0
	}
	return float64(c.Antecedents) / float64(c.Rules)
}

// RulebaseSize is the total number of antecedents over all rules.
func (c Complexity) RulebaseSize() int { return c.Antecedents }

// InternalPerLeaf is the authors' "N_Conditions" column: internal nodes per leaf.
func (c Complexity) InternalPerLeaf() float64 {
	if c.Leaves == 0 {
		return 0
	}
	return float64(c.InternalNodes) / float64(c.Leaves)
}

// Model is a fitted classifier.
type Model interface {
	// Predict returns one class index per row of X. A model may return -1
	// for a row only where its reference implementation does (FGRT's stale
	// root quirk); the harness counts such rows as errors.
	Predict(X [][]float64) []int
	// Complexity reports the size of the fitted model.
	Complexity() Complexity
	// Rules renders the model as human-readable rules using the schema's
	// feature and class names. Each rule that Complexity counts is one
	// line "IF <antecedent> AND ... THEN ..." ("IF TRUE THEN ..." without
	// antecedents); other lines (fallbacks, defaults, notes) do not start
	// with "IF ". The conformance suite (package learntest) checks it.
	Rules(s Schema) string
}

// CheckedPredictor is implemented by models whose prediction can fail for
// reasons of their own: the external kind fits and predicts in another
// process, which may exit with an error, time out or write malformed
// output. PredictChecked returns the predictions or an error that explains
// the failure, and the fitting time the method measured itself (negative
// when it reports none). Callers use PredictChecked (the function).
type CheckedPredictor interface {
	PredictChecked(X [][]float64) (pred []int, fitSeconds float64, err error)
}

// PredictChecked predicts X with m, through CheckedPredictor when m
// implements it, and checks that there is one class index (or -1) per row.
// fitSeconds is the fitting time the model reports itself, or -1.
func PredictChecked(m Model, X [][]float64, nClasses int) (pred []int, fitSeconds float64, err error) {
	fitSeconds = -1
	if c, ok := m.(CheckedPredictor); ok {
		pred, fitSeconds, err = c.PredictChecked(X)
		if err != nil {
			return nil, 0, err
		}
	} else {
		pred = m.Predict(X)
	}
	if err := CheckPredictions(pred, len(X), nClasses); err != nil {
		return nil, 0, err
	}
	return pred, fitSeconds, nil
}

// CheckPredictions reports a prediction slice that breaks the Predict
// contract: not one prediction per row, or a value outside
// -1..nClasses-1.
func CheckPredictions(pred []int, rows, nClasses int) error {
	if len(pred) != rows {
		return fmt.Errorf("model returned %d predictions for %d rows", len(pred), rows)
	}
	for i, p := range pred {
		if p < -1 || p >= nClasses {
			return fmt.Errorf("model predicted class %d for row %d, want 0..%d (or -1)", p, i, nClasses-1)
		}
	}
	return nil
}

// Trainer fits a Model. Implementations are configured before Fit is called
// and must not keep state between calls, so one Trainer may fit many folds
// concurrently.
type Trainer interface {
	Fit(X [][]float64, y []int, s Schema) (Model, error)
}

// ErrNoRows is returned when a training set is empty.
var ErrNoRows = errors.New("learn: no training rows")

// CheckXY validates the shape of a training set against a schema: equal
// lengths, rows of the schema's width, class indices in range and, unless
// allowNaN, no NaN in any cell. It returns a descriptive error.
func CheckXY(X [][]float64, y []int, s Schema, allowNaN bool) error {
	if len(X) == 0 {
		return ErrNoRows
	}
	if len(X) != len(y) {
		return fmt.Errorf("learn: %d rows but %d labels", len(X), len(y))
	}
	d := len(s.Features)
	c := len(s.Classes)
	if c == 0 {
		return errors.New("learn: schema has no classes")
	}
	for i, row := range X {
		if len(row) != d {
			return fmt.Errorf("learn: row %d has %d columns, schema has %d", i, len(row), d)
		}
		if y[i] < 0 || y[i] >= c {
			return fmt.Errorf("learn: row %d has class index %d, want 0..%d", i, y[i], c-1)
		}
		if !allowNaN {
			for j, v := range row {
				if math.IsNaN(v) {
					return fmt.Errorf("learn: row %d column %d (%s) is missing (NaN)", i, j, s.FeatureName(j))
				}
			}
		}
	}
	return nil
}

// Accuracy returns the fraction of positions where pred equals truth.
func Accuracy(truth, pred []int) float64 {
	if len(truth) == 0 {
		return 0
	}
	ok := 0
	for i, t := range truth {
		if pred[i] == t {
			ok++
		}
	}
	return float64(ok) / float64(len(truth))
}

// BalancedAccuracy returns the mean per-class recall over the classes present
// in truth (scikit-learn's balanced_accuracy_score without adjustment).
func BalancedAccuracy(truth, pred []int, nClasses int) float64 {
	if len(truth) == 0 || nClasses <= 0 {
		return 0
	}
	support := make([]int, nClasses)
	hit := make([]int, nClasses)
	for i, t := range truth {
		if t < 0 || t >= nClasses {
			continue
		}
		support[t]++
		if pred[i] == t {
			hit[t]++
		}
	}
	sum, n := 0.0, 0
	for k := range support {
		if support[k] > 0 {
			sum += float64(hit[k]) / float64(support[k])
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// Preparer is implemented by trainers with data-dependent preprocessing of
// their own (FGRT's fuzzy partitions and FGRT*'s partition optimisation).
// Prepare fits that preprocessing on the given rows and returns a Trainer
// that reuses it for every later Fit. A protocol decides which rows: the
// paper protocol prepares on all rows of a dataset (test rows included, as
// the authors' code does); the clean protocol never calls Prepare, and the
// trainer then fits its preprocessing on each training set inside Fit.
// Contract: preparing on a training set and fitting on the same rows gives
// the model an unprepared Fit on those rows gives (learntest checks it).
type Preparer interface {
	Prepare(X [][]float64, y []int, s Schema) (Trainer, error)
}

// GroupFitter is implemented by trainers that can fit several trainers of
// their method on the same rows at once, sharing the work the fits have in
// common (FGRT grows one tree for grid points that differ only in when
// growth stops). FitGroup returns, in order, the models each trainer's own
// Fit would return; trainers it cannot share work with it fits one by one.
type GroupFitter interface {
	FitGroup(ts []Trainer, X [][]float64, y []int, s Schema) ([]Model, error)
}

// GroupPredictor is implemented by models that can predict the same rows
// for several models of their method at once, sharing the work the
// predictions have in common (FGRT's models of one FitGroup share their
// partitions, so a row's memberships are evaluated once for all of them).
// PredictGroup returns, in order, what each model's Predict returns, or
// ok false when the models are not a group it can share work over (the
// caller then predicts model by model).
type GroupPredictor interface {
	PredictGroup(models []Model, X [][]float64) (pred [][]int, ok bool)
}

// PredictGroup predicts X with every model at once when the first model
// is a GroupPredictor that accepts the group; the caller checks each
// prediction set with CheckPredictions, as PredictChecked does. It returns
// nil (the caller then predicts model by model) for fewer than two
// models, no GroupPredictor, a refused group, or a model that predicts
// through CheckedPredictor (an external method, which reports its own
// timing per model).
func PredictGroup(models []Model, X [][]float64) ([][]int, error) {
	if len(models) < 2 {
		return nil, nil
	}
	for _, m := range models {
		if _, ok := m.(CheckedPredictor); ok {
			return nil, nil
		}
	}
	g, ok := models[0].(GroupPredictor)
	if !ok {
		return nil, nil
	}
	preds, ok := g.PredictGroup(models, X)
	if !ok {
		return nil, nil
	}
	if len(preds) != len(models) {
		return nil, fmt.Errorf("group prediction returned %d prediction sets for %d models", len(preds), len(models))
	}
	return preds, nil
}

// SharedPreparer is a Preparer whose preparation depends on only some of
// its settings, so that trainers of one method that differ in the others
// (FGRT's growth parameters) can share one preparation instead of
// repeating it per configuration. PrepareKey renders the settings the
// preparation depends on (equal keys, equal preparations); WithPreparation
// returns a trainer with the receiver's settings and the preparation of p,
// a trainer that Prepare returned for an equal key. Contract: preparing on
// a training set and fitting on the same rows gives the model that an
// unprepared Fit on those rows gives, so a harness may share a preparation
// among configurations fitted on one training set.
type SharedPreparer interface {
	Preparer
	PrepareKey() string
	WithPreparation(p Trainer) (Trainer, error)
}
