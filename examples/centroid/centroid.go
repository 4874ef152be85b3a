// Package centroid is a nearest-centroid classifier: the worked example of
// docs/adding-a-learner.md. It is a complete learner (a spec, a
// configuration with its validation, a trainer, a model that predicts,
// prints its rules and counts them) kept small enough to read in one
// sitting; it is not registered with the harness, whose tests register it
// on their own.
package centroid

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Spec declares the learner to the harness. Config.Validate checks the
// bounds its parameters declare, so the bounds are written once.
var Spec = &learn.Spec{
	Name:        "centroid",
	Version:     1,
	Doc:         "nearest centroid: each class is the mean of its training rows, shrunk toward the mean of all rows",
	DisplayName: "Nearest centroid",
	Params:      params,
	Grids: map[string]learn.Grid{
		"default": {{}},
		"shrink":  {{"shrinkage": "0"}, {"shrinkage": "0.5"}},
	},
	New: learn.Constructor(settings, New),
}

var params = []learn.Param{
	{Name: "shrinkage", Kind: learn.Float, Default: "0", Min: 0, Max: 1, HasMin: true, HasMax: true,
		Doc: "share of the way each centroid moves toward the mean of all rows"},
}

// settings ties Config to params: defaults, decoding and bounds come from
// the declaration. The learner is deterministic, so its constructor
// ignores the unit seed.
var settings = learn.Settings[Config]{Method: "centroid", Params: params}

// Config holds the learner's settings.
type Config struct {
	// Shrinkage moves each class centroid this share of the way toward the
	// mean of all training rows (0 = plain class means).
	Shrinkage float64 `param:"shrinkage"`
}

// DefaultConfig returns the defaults Spec declares.
func DefaultConfig() Config { return settings.Defaults() }

// Validate reports a setting outside the bounds Spec declares.
func (c Config) Validate() error { return settings.CheckBounds(c) }

// Trainer fits nearest-centroid models. It keeps no state between fits.
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

// Fit computes one centroid per class present in y.
func (t *Trainer) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	if err := learn.CheckXY(X, y, s, false); err != nil {
		return nil, err
	}
	d := s.NumFeatures()
	all := make([]float64, d)
	sums := make([][]float64, s.NumClasses())
	counts := make([]int, s.NumClasses())
	for i, row := range X {
		if sums[y[i]] == nil {
			sums[y[i]] = make([]float64, d)
		}
		for j, v := range row {
			sums[y[i]][j] += v
			all[j] += v
		}
		counts[y[i]]++
	}
	m := &Model{}
	for k, sum := range sums {
		if counts[k] == 0 {
			continue // a class absent from training is never predicted
		}
		c := make([]float64, d)
		for j := range c {
			mean, overall := sum[j]/float64(counts[k]), all[j]/float64(len(X))
			c[j] = mean + float64(t.cfg.Shrinkage*(overall-mean))
		}
		m.Classes = append(m.Classes, k)
		m.Centroids = append(m.Centroids, c)
	}
	return m, nil
}

// Model is a fitted nearest-centroid classifier.
type Model struct {
	Classes   []int       // the class of each centroid
	Centroids [][]float64 // one row per class present in training
}

// Predict returns the class of the nearest centroid (squared Euclidean
// distance; ties go to the lower class index).
func (m *Model) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	for i, row := range X {
		best, bestD := 0, math.Inf(1)
		for k, c := range m.Centroids {
			d := 0.0
			for j, v := range c {
				d += float64((row[j] - v) * (row[j] - v))
			}
			if d < bestD {
				best, bestD = k, d
			}
		}
		out[i] = m.Classes[best]
	}
	return out
}

// Complexity counts one rule per centroid with one antecedent ("nearest
// to this point").
func (m *Model) Complexity() learn.Complexity {
	n := len(m.Centroids)
	return learn.Complexity{Rules: n, Antecedents: n, Leaves: n}
}

// Rules prints one line per centroid.
func (m *Model) Rules(s learn.Schema) string {
	var b strings.Builder
	for k, c := range m.Centroids {
		coords := make([]string, len(c))
		for j, v := range c {
			coords[j] = s.FeatureName(j) + "=" + strconv.FormatFloat(v, 'g', 4, 64)
		}
		fmt.Fprintf(&b, "IF nearest to (%s) THEN %s\n", strings.Join(coords, ", "), s.ClassName(m.Classes[k]))
	}
	return b.String()
}
