// Package fga is the genetic fuzzy rule-based classifier of the FGRT paper's
// baselines: ex-fuzzy's BaseFuzzyRulesClassifier (type-1 fuzzy sets, evolved
// membership functions, dominance-score winner-rule inference) optimised by
// pymoo's single-objective GA (docs/fidelity.md#fga).
//
//   - An integer chromosome: per rule nAnts feature genes and nAnts label genes
//     (-1 = don't care), per feature (L-1)*4+3 membership genes in [0, 99]
//     decoded into L trapezoids and min-max rescaled to the training range of
//     the feature, and one consequent gene per rule (-1 = rule disabled).
//   - Fitness = training Matthews correlation coefficient of the winner-rule
//     predictions after the tolerance purge (ex-fuzzy's slow path, which is
//     what the returned model does at prediction time), minimised as 1 - MCC.
//     Checked against ex-fuzzy itself (testdata, golden_test.go).
//   - pymoo's GA: uniform integer sampling, binary tournament (ties broken at
//     random), SBX (eta 3, per-mating probability 0.3, per-variable 0.5,
//     exchange 0.5), polynomial mutation (eta 7, per-individual 0.9,
//     per-gene min(0.5, 1/n_var)) and (mu+lambda) elitist truncation, for a
//     fixed number of generations. pymoo stores SBX children in the integer
//     offspring array, so they are truncated toward zero; mutated genes are
//     rounded half to even (RoundingRepair).
//   - Prediction clips every value to the feature's training range first
//     (ex-fuzzy's fuzzy-variable domain), then the first rule with the largest
//     dominance score * firing strength wins (the first rule when none fires).
//
// The random stream is not pymoo's: every operation draws from its own PCG
// stream derived from the seed, the generation and the individual, so a fit
// is deterministic for a seed and independent of the number of workers that
// evaluate the population.
//
// Nominal features are treated like numeric ones (their codes get evolved
// membership functions), which is what ex-fuzzy does when no categorical mask
// is passed, as in the paper's runtime study. Labels are recoded to the
// classes present in the training set (ex-fuzzy does so only for string
// labels).
package fga

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Config configures a fit. The zero value is not valid; start from DefaultConfig.
type Config struct {
	// Rules is ex-fuzzy's nRules: the number of rule slots in a chromosome.
	Rules int `param:"n_rules"`
	// Antecedents is nAnts: antecedent slots per rule (capped at the number
	// of features).
	Antecedents int `param:"n_ants"`
	// Labels is the number of linguistic labels per feature (>= 2).
	Labels int `param:"n_labels"`
	// Tolerance is the dominance-score threshold of the purge.
	Tolerance float64 `param:"tolerance"`
	// Generations counts pymoo generations: the first evaluates the initial
	// population, each later one evaluates Population offspring.
	Generations int `param:"generations"`
	// Population is pymoo's pop_size (also the number of offspring).
	Population int `param:"population"`
	// CrossoverProb is the per-mating SBX probability (ex-fuzzy's var_prob).
	CrossoverProb float64 `param:"crossover_prob"`
	// SBXEta and MutationEta are the distribution indices of SBX and of the
	// polynomial mutation.
	SBXEta, MutationEta float64
	// Patience, when > 0, stops after that many generations without an
	// improvement of the best fitness larger than MinDelta (ex-fuzzy since
	// 2026-04). 0 runs every generation, as the paper-era library did.
	Patience int
	MinDelta float64
	// HeadTrapezoid evaluates memberships as ex-fuzzy since 2026-06
	// (commit 0583589): a vertical left shoulder (A == B) moves A left by
	// fuzzy.Eps instead of moving B right, so the first label is 1 at the
	// feature's training minimum. The default (false) is the paper-era
	// trapezoid of fuzzy.Trapezoid, where that value is 0.
	HeadTrapezoid bool `param:"trapezoid=head"`
	// Fixed selects ex-fuzzy's linguistic_variables path: the partitions
	// are fixed before the search (quantile partitions of the training set,
	// or of the rows given to Prepare) and the chromosome has no membership
	// genes. False evolves the memberships (the authors' runtime script).
	Fixed bool `param:"partitions=fixed"`
	// Style builds the fixed partitions: fuzzy.QuantileStyle is ex-fuzzy's
	// utils.construct_partitions (any number of labels); fuzzy.PaperStyle
	// is the paper text's quartile formula (3 labels only).
	Style fuzzy.Style `param:"partition"`
	// Workers evaluates the population with that many goroutines; 0 means
	// GOMAXPROCS. It never changes the result. A trainer given a CPU budget
	// (WithThreads) uses the budget's free threads instead.
	Workers int `param:"workers"`
	// Seed seeds every random stream of the fit.
	Seed uint64
}

// DefaultConfig returns the paper's settings (FGRT runtime study): 15 rules, 3
// antecedents, 3 labels, tolerance 0.01, 100 generations, population 50,
// SBX probability 0.3 with eta 3, mutation eta 7.
func DefaultConfig() Config { return settings.Defaults() }

// Validate reports the first invalid option: a value outside the bounds
// Spec's parameters declare, or a setting no parameter exposes.
func (o Config) Validate() error {
	err := settings.CheckBounds(o)
	switch {
	case err != nil:
		return err
	case math.IsInf(o.Tolerance, 0):
		return fmt.Errorf("fga: Tolerance = %v, want a finite value >= 0", o.Tolerance)
	case !(o.SBXEta > 0) || math.IsInf(o.SBXEta, 0):
		return fmt.Errorf("fga: SBXEta = %v, want a finite value > 0", o.SBXEta)
	case !(o.MutationEta > 0) || math.IsInf(o.MutationEta, 0):
		return fmt.Errorf("fga: MutationEta = %v, want a finite value > 0", o.MutationEta)
	case o.Patience < 0:
		return fmt.Errorf("fga: Patience = %d, want >= 0", o.Patience)
	case !(o.MinDelta >= 0):
		return fmt.Errorf("fga: MinDelta = %v, want >= 0", o.MinDelta)
	case o.Style != fuzzy.QuantileStyle && o.Style != fuzzy.PaperStyle:
		return fmt.Errorf("fga: unknown partition style %d", o.Style)
	case o.Style == fuzzy.PaperStyle && !o.Fixed:
		return errors.New("fga: the paper's partition formula applies to fixed partitions only")
	case o.Style == fuzzy.PaperStyle && o.Labels != 3:
		return fmt.Errorf("fga: the paper's partition formula has 3 labels, not %d", o.Labels)
	case o.Fixed && o.HeadTrapezoid:
		return errors.New("fga: the head trapezoid option applies to evolved partitions only")
	}
	return nil
}

// Trainer fits FGA models. It keeps no state between fits; a trainer
// returned by Prepare holds fixed partitions fitted once.
type Trainer struct {
	opts  Config
	fixed *fixedPartitions // nil: fitted on each training set
	// threads is the CPU budget of a fit's loops (WithThreads; nil: Workers
	// goroutines); not a setting.
	threads *par.Budget
}

// New validates the options and returns a trainer.
func New(o Config) (*Trainer, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	return &Trainer{opts: o}, nil
}

// Config returns the trainer's configuration.
func (t *Trainer) Config() Config { return t.opts }

// Fit runs the genetic algorithm and returns the purged rule base of the best
// chromosome.
func (t *Trainer) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	return t.FitModel(X, y, s)
}

// FitModel is Fit with the concrete model type.
func (t *Trainer) FitModel(X [][]float64, y []int, s learn.Schema) (*Model, error) {
	if err := learn.CheckXY(X, y, s, false); err != nil {
		return nil, fmt.Errorf("fga: %w", err)
	}
	if s.NumFeatures() == 0 {
		return nil, errors.New("fga: no input features")
	}
	for j := 0; j < s.NumFeatures(); j++ {
		for i := range X {
			if math.IsInf(X[i][j], 0) {
				return nil, fmt.Errorf("fga: row %d column %d (%s) is infinite", i, j, s.FeatureName(j))
			}
		}
	}
	workers := t.opts.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// A single class makes the MCC fitness 0 for every chromosome, so the
	// search carries no information: the model is that class, without
	// rules (ex-fuzzy would evolve an arbitrary rule base).
	if single := y[0]; !slices.ContainsFunc(y, func(c int) bool { return c != single }) {
		return &Model{single: true, class: single, labels: t.opts.Labels, nClasses: s.NumClasses()}, nil
	}
	fixed := t.fixed
	if t.opts.Fixed && fixed == nil {
		var err error
		if fixed, err = fitFixedPartitions(X, t.opts); err != nil {
			return nil, err
		}
	}
	if fixed != nil && len(fixed.sets) != s.NumFeatures() {
		return nil, fmt.Errorf("fga: partitions prepared for %d features, training set has %d", len(fixed.sets), s.NumFeatures())
	}
	loops := newSpreader(workers, t.threads)
	p := newProblem(X, y, s.NumClasses(), t.opts, loops, fixed)
	res := runGA(&p.lay, t.opts, newEvaluator(p, loops))
	m := buildModel(p, res)
	m.nClasses = s.NumClasses()
	return m, nil
}
