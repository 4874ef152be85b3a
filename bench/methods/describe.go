package methods

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Describe writes what 'fgrtbench methods' shows of m: its name, version
// and doc, a table of its parameters (type, default, allowed values,
// meaning) and each grid as what its points change from the defaults.
func Describe(w io.Writer, m *learn.Spec) {
	stochastic := ""
	if m.Stochastic {
		stochastic = " (stochastic: uses the unit seed)"
	}
	fmt.Fprintf(w, "%s (version %d)%s\n", m.Name, m.Version, stochastic)
	if m.Doc != "" {
		fmt.Fprintf(w, "  %s\n", m.Doc)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  parameter\ttype\tdefault\tallowed\tmeaning")
	for _, p := range m.Params {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", p.Name, p.Kind, p.Default, allowedValues(p), p.Doc)
	}
	tw.Flush()
	for _, g := range m.GridNames() {
		describeGrid(w, m, g)
	}
}

// allowedValues is a parameter's domain as the table prints it: an enum's
// values, else its bounds ("" when it has none).
func allowedValues(p learn.Param) string {
	switch {
	case p.Kind == learn.Enum:
		return strings.Join(p.Values, "|")
	case p.HasMin && p.HasMax:
		return fmt.Sprintf("[%g, %g]", p.Min, p.Max)
	case p.HasMin:
		return fmt.Sprintf(">= %g", p.Min)
	case p.HasMax:
		return fmt.Sprintf("<= %g", p.Max)
	}
	return ""
}

// describeGrid writes one line for grid g: its size and, per point, only
// what the point changes from the defaults (a full point would bury the
// difference among the parameters it leaves alone).
func describeGrid(w io.Writer, m *learn.Spec, g string) {
	cfgs, err := m.Expand(g, nil)
	if err != nil {
		fmt.Fprintf(w, "  grid %s: %v\n", g, err)
		return
	}
	fmt.Fprintf(w, "  grid %s (%d points):", g, len(cfgs))
	def := m.Defaults()
	for i, c := range cfgs {
		var diff []string
		for _, p := range m.Params {
			if c[p.Name] != def[p.Name] {
				diff = append(diff, p.Name+"="+c[p.Name])
			}
		}
		if len(diff) == 0 {
			diff = []string{"defaults"}
		}
		sep := " "
		if i > 0 {
			sep = "; "
		}
		fmt.Fprintf(w, "%s%s", sep, strings.Join(diff, ","))
	}
	fmt.Fprintln(w)
}
