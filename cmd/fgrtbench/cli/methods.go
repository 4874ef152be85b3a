package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

func init() {
	register(methodsCommand)
	register(versionCommand)
}

func methodsCommand() *command.Command {
	c := &command.Command{Name: "methods", Short: "list the registered methods with their parameters, defaults and grids", UsageLine: "[method ...]", Positional: true,
		Long: `Methods lists the registered methods (all when none is named) with their
version, parameters, types, defaults, allowed values and grids. 'methods
external' explains the external kind: learners in any language, run through
files.

A default is the learner's own (for fgrt the reference constructor's:
max_rules 10, coverage_threshold 0), the base over which each grid point's
settings are merged. A command may start elsewhere: 'rules' fits FGRT's
"fixed" grid point (15 rules, coverage 0.01; see 'fgrtbench rules -h').`}
	fs := &c.Flag
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		return describeMethods(env.Stdout, fs.Args())
	}
	return c
}

// describeMethods describes the named methods (every registered one and
// the external kind when none is named), a blank line between two.
func describeMethods(w io.Writer, names []string) error {
	if len(names) == 0 {
		names = append(methods.Names(), external.Name)
	}
	for i, n := range names {
		m, err := methods.Lookup(n)
		if err != nil && n != external.Name {
			return err
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		if n == external.Name {
			external.Describe(w)
		} else {
			methods.Describe(w, m)
		}
	}
	return nil
}

func versionCommand() *command.Command {
	v := &command.Command{Name: "version", Short: "print the module version, VCS revision and Go version", UsageLine: "",
		Long: `Version prints the module version, the VCS revision the binary was built
from (and whether its tree was modified) and the Go version. 'fgrtbench
--version' prints the same.`}
	v.Run = func(ctx context.Context, env *command.Env, args []string) error { return printVersion(env.Stdout) }
	return v
}

// printVersion prints the build the manifest would record: module version,
// VCS revision (and whether its tree was modified), Go version and
// platform.
func printVersion(w io.Writer) error {
	m := manifest.New(nil, 0, "")
	rev := m.VCSRevision
	if rev == "" {
		rev = "unknown revision"
	}
	if m.VCSModified {
		rev += " (modified)"
	}
	fmt.Fprintf(w, "fgrtbench %s %s, %s %s/%s\n", m.Version, rev, m.GoVersion, m.GOOS, m.GOARCH)
	return nil
}
