package cli

import (
	"fmt"
	"strings"

	"github.com/fgrtbench/fgrtbench/fgrt"
	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/plots"
)

// featurePartitions computes the data of plots.MembershipFigure for one numeric
// feature: FGRT's default quantile partition and FGRT*'s grid-optimised one
// (the reference settings, quirk Q3 included), both fitted on all the given
// rows as the paper protocol does, and the feature's values. It lives in
// the wiring layer because it trains FGRT: the figures draw the plain
// values it returns and know no learner. The feature is
// matched by name, case-insensitively when that is unambiguous.
func featurePartitions(X [][]float64, y []int, s learn.Schema, feature string) (plots.MembershipData, error) {
	j := -1
	var names []string
	for i, f := range s.Features {
		names = append(names, f.Name)
		if f.Name == feature {
			j = i
		}
	}
	if j < 0 {
		// Accept a unique case-insensitive match (KEEL writes "Proline").
		for i, f := range s.Features {
			if strings.EqualFold(f.Name, feature) {
				if j >= 0 {
					j = -1
					break
				}
				j = i
			}
		}
		if j >= 0 {
			feature = s.Features[j].Name
		}
	}
	if j < 0 {
		return plots.MembershipData{}, fmt.Errorf("no feature %q (features: %s)", feature, strings.Join(names, ", "))
	}
	if s.Features[j].Nominal {
		return plots.MembershipData{}, fmt.Errorf("feature %q is nominal: its crisp categories have no membership functions to draw", feature)
	}
	corners := func(o fgrt.Config) ([][4]float64, []string, error) {
		tr, err := fgrt.New(o)
		if err != nil {
			return nil, nil, err
		}
		parts, _, err := tr.Partitions(X, y, s)
		if err != nil {
			return nil, nil, err
		}
		if len(parts) != s.NumFeatures() {
			return nil, nil, fmt.Errorf("%d partitions for %d features", len(parts), s.NumFeatures())
		}
		var out [][4]float64
		var terms []string
		for _, t := range parts[j].Terms {
			out = append(out, [4]float64{t.Shape.A, t.Shape.B, t.Shape.C, t.Shape.D})
			terms = append(terms, t.Name)
		}
		return out, terms, nil
	}
	def, terms, err := corners(fgrt.DefaultConfig())
	if err != nil {
		return plots.MembershipData{}, err
	}
	o := fgrt.DefaultConfig()
	o.Optimize, o.Strategy = true, partopt.Grid
	opt, _, err := corners(o)
	if err != nil {
		return plots.MembershipData{}, err
	}
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
