// Package majority is the majority-class baseline: it predicts, for every
// row, the class most frequent among the training rows, and learns no
// rule. A method whose balanced accuracy does not exceed this baseline's
// has learned nothing its class balance did not already say (see
// results.AtChance); the paper's FGRT on pima and saheart is such a case.
//
// Ties between equally frequent classes go to the lowest class index, as
// numpy's argmax over the class counts resolves them, so the baseline is
// the one a Python reader would compute.
package majority

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Spec declares the baseline to the harness (method "majority"). It has no
// parameters and is deterministic; it is not a column of the paper.
var Spec = &learn.Spec{
	Name:    "majority",
	Version: 1,
	Doc: "majority-class baseline: predicts the training fold's most frequent class (ties to the lowest " +
		"class index, as numpy's argmax); zero rules",
	DisplayName: "Majority",
	Order:       80, // after the paper's methods (FGA is 70)
	Grids:       map[string]learn.Grid{"default": {{}}},
	New:         learn.Constructor(settings, New),
}

// settings declares no parameter, so its constructor refuses any value;
// the baseline is deterministic, so the unit seed is ignored.
var settings = learn.Settings[Config]{Method: "majority"}

// Config holds the baseline's settings: there are none. It exists so the
// package spells its API as every learner does.
type Config struct{}

// DefaultConfig returns the (empty) default configuration.
func DefaultConfig() Config { return Config{} }

// Validate accepts every Config: there is nothing to bound.
func (Config) Validate() error { return nil }

// Trainer fits majority-class models. It keeps no state between fits.
type Trainer struct{ cfg Config }

// New validates cfg and returns a Trainer.
func New(cfg Config) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Trainer{cfg: cfg}, nil
}

// Config returns the trainer's configuration.
func (t *Trainer) Config() Config { return t.cfg }

// Fit counts the training rows of each class and keeps the most frequent
// class. Feature values are never read, so missing values (NaN) are
// allowed.
func (t *Trainer) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	if err := learn.CheckXY(X, y, s, true); err != nil {
		return nil, err
	}
	counts := make([]int, s.NumClasses())
	for _, k := range y {
		counts[k]++
	}
	return &Model{Class: Argmax(counts)}, nil
}

// Argmax returns the index of the largest count, the lowest index among
// equal ones (numpy.argmax's rule); -1 for no counts.
func Argmax(counts []int) int {
	best := -1
	for k, n := range counts {
		if best < 0 || n > counts[best] {
			best = k
		}
	}
	return best
}

// Model predicts one class for every row.
type Model struct {
	Class int // the training fold's most frequent class
}

// Predict returns Class for every row.
func (m *Model) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	for i := range out {
		out[i] = m.Class
	}
	return out
}

// Complexity is zero: the baseline has no rule, antecedent or node.
func (m *Model) Complexity() learn.Complexity { return learn.Complexity{} }

// Rules prints the constant prediction on one line. It does not start
// with "IF ", so the printed rules agree with Complexity's zero rules
// (learntest.CheckRulesText).
func (m *Model) Rules(s learn.Schema) string {
	return fmt.Sprintf("predict %s (majority of training rows)\n", s.ClassName(m.Class))
}
