package cli

import (
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
	"github.com/fgrtbench/fgrtbench/tasks/reporting"
)

// stochasticOf and methodBases are what check reads of a manifest, as the
// report reads it (tasks/reporting).
func stochasticOf(m *manifest.Manifest) map[string]bool { return reporting.Stochastic(m) }

func methodBases(m *manifest.Manifest) map[string]string { return reporting.MethodBases(m) }

// runtimePresentation names the methods of runtime rows (the runtime study
// writes no manifest): the registry's names and order.
func runtimePresentation(rows []runtimecsv.Row) results.Presentation {
	var labels []string
	for _, r := range rows {
		labels = append(labels, r.Method)
	}
	return reporting.Presentation(nil, labels)
}
