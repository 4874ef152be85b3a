// Package rules is the work of 'fgrtbench rules': Fit trains FGRT (or
// FGRT*) on the complete rows of a dataset and returns its rules, their
// complexity, the training accuracy and the fuzzy partitions they use;
// ReadStored fits nothing and returns the rules a study stored for one
// dataset, method and fold (by default the representative fold, whose
// accuracy is the median), re-derived against results.csv first.
package rules

import (
	"context"
	"fmt"
	"strconv"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/fgrt"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// FitOptions say what to fit on which dataset.
type FitOptions struct {
	Dataset   string
	Optimized bool // FGRT*: optimise the partitions
	// MaxRules, Coverage and MinImprovement set FGRT's max_rules,
	// coverage_threshold and min_improvement; Set any other parameter
	// (or these again) by name.
	MaxRules       int
	Coverage       float64
	MinImprovement float64
	Set            map[string]string
	// PaperPreprocessing fits the paper protocol's standardised matrix
	// instead of the data's own values.
	PaperPreprocessing bool
	Load               func(ctx context.Context, name string) (*datasets.Dataset, error)
}

// Fitted is the model Fit trained, described.
type Fitted struct {
	Dataset        string
	Method, Config string
	Rows           int
	Units          string // the units of the partitions' corners
	Accuracy       float64
	Complexity     learn.Complexity
	Text           string                // the rules as FGRT prints them
	Record         artifacts.ModelRecord // classes, rules and partitions by name
}

// Fit trains FGRT (FGRT* with Optimized) on the dataset's complete rows.
func Fit(ctx context.Context, o FitOptions) (*Fitted, error) {
	out := &Fitted{Dataset: o.Dataset, Method: "fgrt", Units: "the data's own units"}
	if o.Optimized {
		out.Method = "fgrt-opt"
	}
	m, err := methods.Lookup(out.Method)
	if err != nil {
		return nil, err
	}
	cfg, err := m.Resolve(o.overrides())
	if err != nil {
		return nil, err
	}
	out.Config = cfg.String()
	ds, err := o.Load(ctx, o.Dataset)
	if err != nil {
		return nil, err
	}
	X, y, schema, err := o.matrix(ds, out)
	if err != nil {
		return nil, err
	}
	tr, err := m.New(cfg, 0)
	if err != nil {
		return nil, err
	}
	model, err := tr.Fit(X, y, schema)
	if err != nil {
		return nil, err
	}
	return out, out.describe(model, X, y, schema)
}

// overrides are the parameters the options set, over the registry's
// defaults.
func (o FitOptions) overrides() map[string]string {
	out := map[string]string{
		"max_rules":          strconv.Itoa(o.MaxRules),
		"coverage_threshold": strconv.FormatFloat(o.Coverage, 'g', -1, 64),
		"min_improvement":    strconv.FormatFloat(o.MinImprovement, 'g', -1, 64),
	}
	for k, v := range o.Set {
		out[k] = v
	}
	return out
}

// matrix is what the model fits: the complete rows in the data's units,
// or the paper's standardised matrix (which out's Units then names).
func (o FitOptions) matrix(ds *datasets.Dataset, out *Fitted) ([][]float64, []int, learn.Schema, error) {
	if o.PaperPreprocessing {
		p, err := paperprep.Prepare(ds)
		if err != nil {
			return nil, nil, learn.Schema{}, err
		}
		out.Units = "the standardised units of the paper's preprocessing"
		return p.X, p.Y, p.Schema, nil
	}
	full, _ := ds.CompleteRows()
	return full.X, full.Y, full.Schema(), nil
}

// describe fills in what the model says of itself and of its data.
func (f *Fitted) describe(model learn.Model, X [][]float64, y []int, schema learn.Schema) error {
	fm, ok := model.(*fgrt.Model)
	if !ok {
		return fmt.Errorf("method %s did not return an FGRT model", f.Method)
	}
	desc, err := fm.Describe(schema)
	if err != nil {
		return err
	}
	f.Record = artifacts.NewModelRecord("", 0, desc, nil)
	f.Rows, f.Accuracy = len(X), learn.Accuracy(y, fm.Predict(X))
	f.Complexity, f.Text = fm.Complexity(), fm.Rules(schema)
	return nil
}
