package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/methods"
)

func init() {
	register(methodsCommand)
	register(versionCommand)
}

func methodsCommand() *Command {
	c := &Command{Name: "methods", Short: "list the registered methods with their parameters, defaults and grids", UsageLine: "[method ...]", Positional: true,
		Long: `Methods lists the registered methods (all when none is named) with their
version, parameters, types, defaults, allowed values and grids. 'methods
external' explains the external kind: learners in any language, run through
files.

A default is the learner's own (for fgrt the reference constructor's:
max_rules 10, coverage_threshold 0), the base over which each grid point's
settings are merged. A command may start elsewhere: 'rules' fits FGRT's
"fixed" grid point (15 rules, coverage 0.01; see 'fgrtbench rules -h').`}
	fs := &c.Flag
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		names := fs.Args()
		if len(names) == 0 {
			names = append(methods.Names(), external.Name)
		}
		for i, n := range names {
			if n == external.Name {
				if i > 0 {
					fmt.Fprintln(env.Stdout)
				}
				describeExternal(env.Stdout)
				continue
			}
			m, err := methods.Lookup(n)
			if err != nil {
				return err
			}
			if i > 0 {
				fmt.Fprintln(env.Stdout)
			}
			describeMethod(env.Stdout, m)
		}
		return nil
	}
	return c
}

func versionCommand() *Command {
	v := &Command{Name: "version", Short: "print the module version, VCS revision and Go version", UsageLine: "",
		Long: `Version prints the module version, the VCS revision the binary was built
from (and whether its tree was modified) and the Go version. 'fgrtbench
--version' prints the same.`}
	v.Run = func(ctx context.Context, env *Env, args []string) error {
		m := manifest.New(nil, 0, "")
		rev := m.VCSRevision
		if rev == "" {
			rev = "unknown revision"
		}
		if m.VCSModified {
			rev += " (modified)"
		}
		fmt.Fprintf(env.Stdout, "fgrtbench %s %s, %s %s/%s\n", m.Version, rev, m.GoVersion, m.GOOS, m.GOARCH)
		return nil
	}
	return v
}

// describeExternal explains the external kind, which has no fixed
// parameters: the keys of its spec block and the command's placeholders.
func describeExternal(w io.Writer) {
	fmt.Fprint(w, `external  (a learner in any language, run through files; contract: docs/external.md)
  a spec declares one per method, e.g.
    - name: external
      label: sklearn-tree                 # its column in results.csv and the reports
      external:
        command: python3 sklearn_tree.py {dir}   # runs in the spec file's directory: relative
                                          # paths name files beside the spec
        mode: worker                      # one adapter process per harness worker, jobs sent on
                                          # its stdin (default process: a process per job)
        worker_jobs: 0                    # worker mode: a fresh worker every N jobs (0: never)
        adapter: FILE                     # optional: the file whose SHA-256 identifies the method
                                          # (default: the word after the program naming a file)
        params: {max_depth: "null"}       # its parameters and defaults; the method's params:,
                                          # sweep: and selection: work as for any method
        timeout: 2m                       # per job (default 10m)
        deterministic: false              # true: the method ignores the seed
  placeholders of the command ({NAME}: the value of the declared parameter NAME):
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range external.Placeholders() {
		fmt.Fprintf(tw, "    %s\t%s\n", p[0], p[1])
	}
	tw.Flush()
	fmt.Fprintln(w, "  try: fgrtbench run --spec examples/external/sklearn.yaml --out out/sklearn   (python3 with scikit-learn; from any directory)")
	fmt.Fprintln(w, "  debug one job: fgrtbench external try --spec examples/external/sklearn.yaml --method sklearn-tree")
}

func describeMethod(w io.Writer, m *methods.Method) {
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
		allowed := ""
		switch {
		case p.Kind == methods.Enum:
			allowed = strings.Join(p.Values, "|")
		case p.HasMin && p.HasMax:
			allowed = fmt.Sprintf("[%g, %g]", p.Min, p.Max)
		case p.HasMin:
			allowed = fmt.Sprintf(">= %g", p.Min)
		case p.HasMax:
			allowed = fmt.Sprintf("<= %g", p.Max)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", p.Name, p.Kind, p.Default, allowed, p.Doc)
	}
	tw.Flush()
	for _, g := range m.GridNames() {
		cfgs, err := m.Expand(g, nil)
		if err != nil {
			fmt.Fprintf(w, "  grid %s: %v\n", g, err)
			continue
		}
		fmt.Fprintf(w, "  grid %s (%d points):", g, len(cfgs))
		// Show only what each point changes from the defaults.
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
}
