// Package cli implements the fgrtbench command line: flag parsing and
// wiring only. Every behaviour it offers is a library call that tests make
// directly: each command parses its flags and calls the one function of
// the layer that does its work (tasks/..., reports, datasets, ...).
//
// Commands follow the go command's pattern (internal/command): each is a
// *Command value with a usage line, a short and a long help, and a flag
// set whose flags its constructor binds before anything runs, so that
// 'fgrtbench help CMD' and 'fgrtbench CMD -h' print the same text, listing
// every flag. Main parses the flags; a command's Run sees only what is left.
//
// To add a command, write a constructor that returns a *Command with its
// Name, UsageLine, Short and Long, binds its flags into c.Flag and sets Run
// (closing over the flag values), and register it from an init function; a
// subcommand goes into its parent's Commands instead. Return usageError for
// a missing flag, and errors without a "fgrtbench CMD: " prefix: Main adds
// it. The tests in help_test.go then hold the new command to the rules.
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/command"
)

// usageError is a command's complaint about how it was invoked (a missing
// required flag): Main prints it with the pointer to the command's help and
// exits 2. A failure with an ExitCode method (check's "data changed",
// "learner changed" and "study changed", documented in docs/ci-gate.md and
// 'check -h') exits with that status; any other exits 1.
type usageError = command.UsageError

// constructors build the commands, each with its flags bound. Main builds
// them afresh for every invocation, so that flag values never carry over
// from one invocation to the next (tests call Main many times).
var constructors []func() *command.Command

func register(newCommand func() *command.Command) { constructors = append(constructors, newCommand) }

// Commands returns every command, newly built, sorted by name.
func Commands() []*command.Command {
	cs := make([]*command.Command, 0, len(constructors))
	for _, f := range constructors {
		cs = append(cs, command.SetUp(f(), nil))
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs
}

// Main runs the CLI with args (without the program name) and returns the
// process exit code: 0 success, 1 failure, 2 usage error. Every message a
// command's failure prints starts with one "fgrtbench CMD: ", added here.
func Main(ctx context.Context, env *command.Env, args []string) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args = append([]string{"version"}, args[1:]...)
	}
	p := command.Program{Name: "fgrtbench", Commands: Commands(), Help: printHelp, Check: checkFlagRanges}
	return p.Main(ctx, env, args)
}

// flagName spells a flag as the documentation does: -j, --out.
func flagName(name string) string { return command.FlagName(name) }

func printHelp(w io.Writer, cmds []*command.Command) {
	fmt.Fprint(w, `fgrtbench: a reproducible benchmark harness for the FGRT paper
("A Fast Interpretable Fuzzy Tree Learner").

Usage: fgrtbench <command> [flags]

Commands:
`)
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-10s %s\n", c.Name, c.Short)
	}
	fmt.Fprint(w, `
Run 'fgrtbench help <command>' (or 'fgrtbench <command> -h') for a command's flags.

Environment:
  FGRT_DATA_MIRROR      directory of <name>.dat files used instead of the network
  FGRT_CACHE_DIR        where verified datasets are cached (default: user cache dir)
  FGRTBENCH_CPUPROFILE  a new file for the run's CPU profile (go tool pprof)
  FGRTBENCH_UNIT_TIMES  a new file for the run's schedule: each unit's start, wall time and size (CSV)
`)
}

// checkListFlags refuses list flags that were given but name nothing
// ("--datasets=" or "--datasets ,"): only an absent flag means its default
// (all datasets, all methods).
func checkListFlags(fs *flag.FlagSet, names ...string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, n := range names {
			if f.Name == n && err == nil && strings.Trim(f.Value.String(), ", \t") == "" {
				err = fmt.Errorf("--%s is empty; name at least one, or omit the flag for all", n)
			}
		}
	})
	return err
}

// listFlag is a comma-separated list flag ("--samples 20,40,80"). Every
// list flag of every command is one, and its value is read only through
// items, so that all of them refuse the same mistakes in the same words:
// an empty item ("1,,2", "a,") and an item given twice ("--scaling-studies
// paper,paper" would time the same study twice). Its flag is a string flag,
// so help shows it as one.
type listFlag struct {
	name  string
	value *string
}

// newListFlag defines a list flag on fs.
func newListFlag(fs *flag.FlagSet, name, def, usage string) listFlag {
	return listFlag{name: name, value: fs.String(name, def, usage)}
}

// items are the flag's items, in order (none for an empty value).
func (l listFlag) items() ([]string, error) {
	v := *l.value
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	parts := strings.Split(v, ",")
	out := make([]string, 0, len(parts))
	for i, s := range parts {
		if s = strings.TrimSpace(s); s == "" {
			return nil, fmt.Errorf("--%s %s: item %d of %d is empty; separate the items with single commas", l.name, v, i+1, len(parts))
		}
		out = append(out, s)
	}
	if err := l.once(out, func(s string) string { return s }); err != nil {
		return nil, err
	}
	return out, nil
}

// once refuses two items that key says are the same (by their text, or,
// for numbers and name=value pairs, by what they mean: "1" and "01",
// "fga=1" and "fga=2").
func (l listFlag) once(items []string, key func(string) string) error {
	seen := make(map[string]int, len(items))
	for i, s := range items {
		k := key(s)
		if j, dup := seen[k]; dup {
			return fmt.Errorf("--%s %s: item %d (%s) repeats item %d (%s); give each once", l.name, *l.value, i+1, s, j+1, items[j])
		}
		seen[k] = i
	}
	return nil
}
