// Package cli implements the fgrtbench command line: flag parsing and
// wiring only. Every behaviour it offers is a library call that tests make
// directly.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	usage   string
	run     func(ctx context.Context, env *Env, args []string) error
}

// Env carries the process environment into commands, so tests can run them
// with their own streams and variables.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// StderrIsTerminal enables the progress bar.
	StderrIsTerminal bool
}

var commands []*command

func register(c *command) { commands = append(commands, c) }

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// errUsage marks an error already explained by printed usage.
var errUsage = errors.New("usage")

// Main runs the CLI with args (without the program name) and returns the
// process exit code: 0 success, 1 failure, 2 usage error.
func Main(ctx context.Context, env *Env, args []string) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			if c := lookup(args[1]); c != nil {
				printUsage(env.Stdout, c, nil)
				return 0
			}
			fmt.Fprintf(env.Stderr, "fgrtbench: unknown command %q; run 'fgrtbench help'\n", args[1])
			return 2
		}
		printHelp(env.Stdout)
		return 0
	}
	c := lookup(args[0])
	if c == nil {
		fmt.Fprintf(env.Stderr, "fgrtbench: unknown command %q (commands: %s); run 'fgrtbench help'\n", args[0], strings.Join(commandNames(), ", "))
		return 2
	}
	err := c.run(ctx, env, args[1:])
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		fmt.Fprintf(env.Stderr, "fgrtbench %s: %v\n", c.name, err)
		return 1
	}
}

func commandNames() []string {
	var out []string
	for _, c := range commands {
		out = append(out, c.name)
	}
	sort.Strings(out)
	return out
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `fgrtbench: a reproducible benchmark harness for the FGRT paper
("A Fast Interpretable Fuzzy Tree Learner").

Usage: fgrtbench <command> [flags]

Commands:
`)
	cs := append([]*command(nil), commands...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run 'fgrtbench <command> -h' for a command's flags.

Environment:
  FGRT_DATA_MIRROR  directory of <name>.dat files used instead of the network
  FGRT_CACHE_DIR    where verified datasets are cached (default: user cache dir)
`)
}

func printUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: fgrtbench %s %s\n\n%s\n", c.name, c.usage, c.summary)
	if fs != nil {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// newFlags creates a flag set whose -h prints the command's usage to stdout.
func newFlags(env *Env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses flags, printing usage on -h and a one-line error otherwise.
func parse(env *Env, c *command, fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(env.Stdout, c, fs)
		return flag.ErrHelp
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench %s: %v (see 'fgrtbench %s -h')\n", c.name, err, c.name)
		return errUsage
	}
	return nil
}

// checkListFlags refuses list flags that were given but name nothing
// ("--datasets=" or "--datasets ,"): only an absent flag means its default
// (all datasets, all methods).
func checkListFlags(fs *flag.FlagSet, names ...string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, n := range names {
			if f.Name == n && err == nil && len(splitList(f.Value.String())) == 0 {
				err = fmt.Errorf("--%s is empty; name at least one, or omit the flag for all", n)
			}
		}
	})
	return err
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
