package cli

import (
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/results"
	rt "github.com/fgrtbench/fgrtbench/timing"
)

// presentationOf says how the views name and order the method labels of
// results: as the manifest's method entries record (written by the runner
// from the registry). Results without a manifest, or with one written
// before the entries existed, get the registry's current names and order
// for its methods and the labels they hold, which is what such results
// were shown with (the figures of a runtime.csv beside them included).
func presentationOf(m *manifest.Manifest, labels []string) results.Presentation {
	if m != nil && len(m.Methods) > 0 {
		return results.PresentationOf(m.Methods)
	}
	p := results.Presentation{Names: map[string]string{}, Order: methods.Names()}
	for _, l := range append(methods.Names(), labels...) {
		base, _ := results.SplitVariant(l)
		p.Names[base] = methods.DisplayName(base)
	}
	return p
}

// recordLabels lists the method labels of records (in any order).
func recordLabels(recs []results.Record) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		if !seen[r.Method] {
			seen[r.Method] = true
			out = append(out, r.Method)
		}
	}
	return out
}

// stochasticOf lists the registry methods whose results depend on their
// seed: from the manifest's method entries, else from the registry.
func stochasticOf(m *manifest.Manifest) map[string]bool {
	out := map[string]bool{}
	if m != nil && len(m.Methods) > 0 {
		for _, e := range m.Methods {
			if e.Stochastic {
				out[e.Method] = true
			}
		}
		return out
	}
	for _, n := range methods.Names() {
		if mm, err := methods.Lookup(n); err == nil && mm.Stochastic {
			out[n] = true
		}
	}
	return out
}

// runtimePresentation names the methods of runtime rows (the runtime study
// writes no manifest): the registry's names and order.
func runtimePresentation(rows []rt.Row) results.Presentation {
	var labels []string
	for _, r := range rows {
		labels = append(labels, r.Method)
	}
	return presentationOf(nil, labels)
}
