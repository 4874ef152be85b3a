package study

import (
	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/results"
)

// Entries records, for each method label of the study, what the
// views need of the registry (display name, display order, stochastic or
// not), so that reports, figures and the gate read it from the manifest
// instead of importing the registry and, through it, every learner.
func Entries(ms []ResolvedMethod) []results.Method {
	order := map[string]int{}
	for i, n := range methods.Names() {
		order[n] = i
	}
	out := make([]results.Method, 0, len(ms))
	for _, m := range ms {
		base, _ := results.SplitVariant(m.Label)
		o, ok := order[base]
		if !ok {
			o = -1
		}
		out = append(out, results.Method{Label: m.Label, Method: m.Spec.Name, DisplayName: methods.DisplayName(base),
			Order: o, Stochastic: m.Method.Stochastic})
	}
	return out
}
