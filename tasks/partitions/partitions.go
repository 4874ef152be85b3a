// Package partitions is the work of 'plot partitions': the figure of the
// fuzzy partitions that FGRT and FGRT* build for one numeric feature of a
// dataset, on the paper protocol's standardised matrix or on the raw
// values. The partitions come from fgrt's library (fgrt.ReferencePartitions);
// the figure draws the plain corners and values this package hands it.
package partitions

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/fgrt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/plots"
)

// Request is one partitions figure.
type Request struct {
	// Data is the dataset; Name is how the user named it: a data file's
	// figures are named after its stem (mine.csv → mine).
	Data *datasets.Dataset
	Name string
	// Feature is matched by name, case-insensitively when that is
	// unambiguous.
	Feature string
	// Protocol is paper (all rows of the paper protocol's standardised
	// matrix) or raw (the complete rows, unscaled).
	Protocol string
	// Standardised draws the paper protocol's values as the learner sees
	// them rather than in the data's own units.
	Standardised bool
	// Out is the output directory.
	Out string
}

// Draw writes the figure as PNG and SVG into r.Out and returns the path
// of both without its extension.
func Draw(r Request) (string, error) {
	var d plots.MembershipData
	var err error
	switch r.Protocol {
	case "paper":
		d, err = paperData(r.Data, r.Feature, r.Standardised)
	case "raw":
		complete, _ := r.Data.CompleteRows()
		d, err = Data(complete.X, complete.Y, complete.Schema(), r.Feature)
		d.XLabel = d.Feature + " (raw values, complete rows)"
	default:
		return "", fmt.Errorf("--protocol: %q is not paper or raw", r.Protocol)
	}
	if err != nil {
		return "", err
	}
	stem := strings.TrimSuffix(filepath.Base(r.Name), filepath.Ext(r.Name))
	name := safename.Component("partitions_" + stem + "_" + d.Feature) // a header never decides the path
	if err := plots.MembershipFigure(r.Out, name, d); err != nil {
		return "", err
	}
	return filepath.Join(r.Out, name), nil
}

// paperData is the figure's data on the paper protocol's prepared matrix,
// its value axis in the data's units unless standardised.
func paperData(ds *datasets.Dataset, feature string, standardised bool) (plots.MembershipData, error) {
	prep, err := paperprep.Prepare(ds)
	if err != nil {
		return plots.MembershipData{}, err
	}
	d, err := Data(prep.X, prep.Y, prep.Schema, feature)
	if err != nil {
		return d, err
	}
	d.StandardisedXLabel = d.Feature + " (paper protocol: standardised on the 64% training part)"
	d.XLabel = d.Feature + " (data units; partitions built on the paper protocol's standardised matrix)"
	d.ShowStandardised = standardised
	if st, ok := scalingOf(prep, d.Feature); ok {
		d.Standardisation = &st
	} else {
		d.XLabel = d.StandardisedXLabel // an unscaled column: its values are the data's
	}
	return d, nil
}

// Data is the figure's data for one numeric feature of X: FGRT's default
// quantile partition and FGRT*'s grid-optimised one, fitted on all the
// given rows, and the feature's values.
func Data(X [][]float64, y []int, s learn.Schema, feature string) (plots.MembershipData, error) {
	j, err := featureIndex(s, feature)
	if err != nil {
		return plots.MembershipData{}, err
	}
	feature = s.Features[j].Name
	plain, optimised, err := fgrt.ReferencePartitions(X, y, s, j)
	if err != nil {
		return plots.MembershipData{}, err
	}
	def, terms := corners(plain)
	opt, _ := corners(optimised)
	vals := make([]float64, len(X))
	for i := range X {
		vals[i] = X[i][j]
	}
	return plots.MembershipData{
		Feature: feature, Terms: terms, Default: def, Optimised: opt, Values: vals,
		DefaultTitle:   feature + ": default quantile partition (FGRT)",
		OptimisedTitle: feature + ": grid-optimised partition (FGRT*)",
	}, nil
}

// featureIndex finds a numeric feature by name, or by a unique
// case-insensitive match (KEEL writes "Proline").
func featureIndex(s learn.Schema, feature string) (int, error) {
	var names []string
	exact, folded, nFolded := -1, -1, 0
	for i, f := range s.Features {
		names = append(names, f.Name)
		if f.Name == feature {
			exact = i
		}
		if strings.EqualFold(f.Name, feature) {
			folded, nFolded = i, nFolded+1
		}
	}
	j := exact
	if j < 0 && nFolded == 1 {
		j = folded
	}
	if j < 0 {
		return -1, fmt.Errorf("no feature %q (features: %s)", feature, strings.Join(names, ", "))
	}
	if s.Features[j].Nominal {
		return -1, fmt.Errorf("feature %q is nominal: its crisp categories have no membership functions to draw", s.Features[j].Name)
	}
	return j, nil
}

// corners lists a partition's trapezoids and term names.
func corners(p fuzzy.Partition) ([][4]float64, []string) {
	var out [][4]float64
	var terms []string
	for _, t := range p.Terms {
		out = append(out, [4]float64{t.Shape.A, t.Shape.B, t.Shape.C, t.Shape.D})
		terms = append(terms, t.Name)
	}
	return out, terms
}

// scalingOf returns the paper protocol's standard scaling of a feature,
// false when the feature was not scaled.
func scalingOf(prep *paperprep.Prepared, feature string) (plots.Standardisation, bool) {
	if prep.Scaler == nil {
		return plots.Standardisation{}, false
	}
	for k, j := range prep.Scaler.Cols {
		if j < len(prep.Schema.Features) && prep.Schema.Features[j].Name == feature {
			return plots.Standardisation{Mean: prep.Scaler.Mean[k], Scale: prep.Scaler.Scale[k]}, true
		}
	}
	return plots.Standardisation{}, false
}
