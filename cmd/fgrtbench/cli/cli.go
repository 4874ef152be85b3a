// Package cli implements the fgrtbench command line: flag parsing and
// wiring only. Every behaviour it offers is a library call that tests make
// directly.
//
// Commands follow the Go command's pattern (cmd/go/internal/base): each is
// a *Command value with a usage line, a short and a long help, and a flag
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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Command is one fgrtbench command (or, inside Commands, a subcommand such
// as 'plot all').
type Command struct {
	// Name is the word that selects the command.
	Name string
	// UsageLine is the command's arguments, printed after its name.
	UsageLine string
	// Short is the one line 'fgrtbench help' lists.
	Short string
	// Long is the description that 'fgrtbench help CMD' and 'CMD -h' print
	// above the flags ("" repeats Short).
	Long string
	// Flag holds the command's flags, bound by its constructor.
	Flag flag.FlagSet
	// Positional says that the command reads arguments after its flags
	// (names, files). Without it, an argument is refused rather than
	// ignored ('report mydir' would otherwise report ./out).
	Positional bool
	// Run runs the command with the arguments left after the flags. A
	// command with Commands has no Run of its own.
	Run func(ctx context.Context, env *Env, args []string) error
	// Commands are the subcommands, selected by the next word.
	Commands []*Command

	parent *Command
}

// LongName is the command's name with its parents' ("plot all").
func (c *Command) LongName() string {
	if c.parent != nil {
		return c.parent.LongName() + " " + c.Name
	}
	return c.Name
}

// Env carries the process environment into commands, so tests can run them
// with their own streams and variables.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// StderrIsTerminal enables the progress bar.
	StderrIsTerminal bool
}

// constructors build the commands, each with its flags bound. Main builds
// them afresh for every invocation, so that flag values never carry over
// from one invocation to the next (tests call Main many times).
var constructors []func() *Command

func register(newCommand func() *Command) { constructors = append(constructors, newCommand) }

// Commands returns every command, newly built, sorted by name.
func Commands() []*Command {
	cs := make([]*Command, 0, len(constructors))
	for _, f := range constructors {
		cs = append(cs, setUp(f(), nil))
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs
}

// setUp makes c's flag set report errors rather than exit or print, and
// links the subcommands to their parent.
func setUp(c *Command, parent *Command) *Command {
	c.parent = parent
	c.Flag.Init(c.LongName(), flag.ContinueOnError)
	c.Flag.SetOutput(io.Discard)
	c.Flag.Usage = func() {}
	for _, s := range c.Commands {
		setUp(s, c)
	}
	return c
}

func lookup(cs []*Command, name string) *Command {
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Main runs the CLI with args (without the program name) and returns the
// process exit code: 0 success, 1 failure, 2 usage error. Every message a
// command's failure prints starts with one "fgrtbench CMD: ", added here.
func Main(ctx context.Context, env *Env, args []string) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	cmds := Commands()
	if len(args) == 0 {
		// Like the go command: usage on stderr, and a status a script
		// notices (a bare invocation did nothing it was asked for).
		printHelp(env.Stderr, cmds)
		return 2
	}
	switch args[0] {
	case "help", "-h", "--help", "-help":
		if len(args) == 1 {
			printHelp(env.Stdout, cmds)
			return 0
		}
		c, rest := find(cmds, args[1:])
		if c == nil || len(rest) > 0 {
			unknownCommand(env, cmds, c, args[1:], rest)
			return 2
		}
		printUsage(env.Stdout, c)
		return 0
	case "--version", "-version":
		args = append([]string{"version"}, args[1:]...)
	}
	c, rest := find(cmds, args)
	if c == nil {
		unknownCommand(env, cmds, nil, args, rest)
		return 2
	}
	if c.Run == nil {
		switch {
		case len(rest) > 0 && (rest[0] == "-h" || rest[0] == "--help" || rest[0] == "-help"):
			printUsage(env.Stdout, c)
			return 0
		case len(rest) > 0:
			unknownCommand(env, cmds, c, args, rest)
		default:
			fmt.Fprintf(env.Stderr, "fgrtbench %s: need a subcommand: %s (see 'fgrtbench %s -h')\n", c.LongName(), strings.Join(names(c.Commands), " or "), c.LongName())
		}
		return 2
	}
	err := c.Flag.Parse(rest)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(env.Stdout, c)
		return 0
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench %s: %s (see 'fgrtbench %s -h')\n", c.LongName(), flagError(&c.Flag, err), c.LongName())
		return 2
	}
	for _, a := range c.Flag.Args() {
		// The flag package stops at the first argument: a flag after it
		// would be read as a name ('merge a b --out m').
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && c.Flag.Lookup(name) != nil {
			fmt.Fprintf(env.Stderr, "fgrtbench %s: flag %s after the arguments; flags come first (see 'fgrtbench %s -h')\n", c.LongName(), flagName(name), c.LongName())
			return 2
		}
	}
	if err := checkFlagRanges(c); err != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench %s: %v (see 'fgrtbench %s -h')\n", c.LongName(), err, c.LongName())
		return 2
	}
	if !c.Positional && c.Flag.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "fgrtbench %s: unexpected argument %q: %s takes flags only (see 'fgrtbench %s -h')\n", c.LongName(), c.Flag.Arg(0), c.LongName(), c.LongName())
		return 2
	}
	err = c.Run(ctx, env, c.Flag.Args())
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(env.Stderr, "fgrtbench %s: %s (see 'fgrtbench %s -h')\n", c.LongName(), ue, c.LongName())
		return 2
	default:
		// A library's errors start with its package's name, which for
		// timing/speed and timing's "runtime" is the command's own: print
		// the name once.
		msg := strings.TrimPrefix(err.Error(), c.Name+": ")
		fmt.Fprintf(env.Stderr, "fgrtbench %s: %s\n", c.LongName(), msg)
		var ec exitCoder
		if errors.As(err, &ec) {
			return ec.ExitCode()
		}
		return 1
	}
}

// exitCoder is a failure with an exit status of its own (check's "data
// changed", "learner changed" and "study changed", documented in
// docs/ci-gate.md and 'check -h'); any other failure exits 1.
type exitCoder interface{ ExitCode() int }

// usageError is a command's complaint about how it was invoked (a missing
// required flag): Main prints it with the pointer to the command's help and
// exits 2.
type usageError string

func (e usageError) Error() string { return string(e) }

// unknownCommand says that args do not name a command: the word that
// matched nothing (rest[0], under parent when one matched), and the nearest
// valid name when one is near.
func unknownCommand(env *Env, cmds []*Command, parent *Command, args, rest []string) {
	word, among, where, help := args[0], cmds, "fgrtbench", "fgrtbench help"
	if parent != nil {
		word, among = rest[0], parent.Commands
		where, help = "fgrtbench "+parent.LongName(), "fgrtbench help "+parent.LongName()
	}
	if len(among) == 0 {
		fmt.Fprintf(env.Stderr, "%s: has no subcommands, got %q; run '%s'\n", where, word, help)
		return
	}
	msg := fmt.Sprintf("%s: unknown command %q", where, word)
	if near := nearest(word, names(among)); near != "" {
		msg += fmt.Sprintf("; did you mean %q? (see '%s')", near, help)
	} else {
		msg += fmt.Sprintf(" (commands: %s); see '%s'", strings.Join(names(among), ", "), help)
	}
	fmt.Fprintln(env.Stderr, msg)
}

// flagError words a flag parse error; an unknown flag gets the nearest
// flag of the command, when one is near.
func flagError(fs *flag.FlagSet, err error) string {
	if m := invalidValue.FindStringSubmatch(err.Error()); m != nil {
		// The flag package's "invalid value "0" for flag -timeout: ..."
		// names the flag as no documentation does: say "--timeout 0".
		value, _ := strconv.Unquote(m[1])
		return flagName(m[2]) + " " + value + strings.TrimPrefix(": "+m[3], ": "+m[1])
	}
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return err.Error()
	}
	name = strings.TrimLeft(name, "-")
	msg := "unknown flag " + flagName(name)
	var all []string
	fs.VisitAll(func(f *flag.Flag) { all = append(all, f.Name) })
	if near := nearest(name, all); near != "" {
		msg += "; did you mean " + flagName(near) + "?"
	}
	return msg
}

var invalidValue = regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for flag -([^:]+): (.*)$`)

// nearest returns the candidate closest to word by edit distance, or ""
// when none is close enough to be a likely misspelling (within a third of
// the word's length, at least 2); a candidate that word abbreviates counts
// as one edit away.
func nearest(word string, candidates []string) string {
	best, bestDist := "", max(2, len(word)/3)+1
	for _, c := range candidates {
		d := editDistance(word, c)
		if len(word) >= 3 && strings.HasPrefix(c, word) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (bytes: flag and
// command names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// find descends from the top-level commands along args' leading words and
// returns the command they name and the arguments after it; nil when the
// first word names no command.
func find(cmds []*Command, args []string) (*Command, []string) {
	c := lookup(cmds, args[0])
	if c == nil {
		return nil, args
	}
	args = args[1:]
	for len(c.Commands) > 0 && len(args) > 0 {
		s := lookup(c.Commands, args[0])
		if s == nil {
			break
		}
		c, args = s, args[1:]
	}
	return c, args
}

func names(cs []*Command) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func printHelp(w io.Writer, cmds []*Command) {
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
  FGRT_DATA_MIRROR  directory of <name>.dat files used instead of the network
  FGRT_CACHE_DIR    where verified datasets are cached (default: user cache dir)
`)
}

// printUsage prints what both 'fgrtbench help CMD' and 'fgrtbench CMD -h'
// print: the usage line, the long help, every flag with its default, and
// the subcommands.
func printUsage(w io.Writer, c *Command) {
	fmt.Fprintf(w, "Usage: fgrtbench %s %s\n\n", c.LongName(), c.UsageLine)
	long := c.Long
	if long == "" {
		long = c.Short
	}
	fmt.Fprintln(w, strings.TrimSpace(long))
	if hasFlags(&c.Flag) {
		fmt.Fprintln(w, "\nFlags:")
		printFlags(w, &c.Flag)
	}
	if len(c.Commands) > 0 {
		fmt.Fprintln(w, "\nCommands:")
		for _, s := range c.Commands {
			fmt.Fprintf(w, "  %-10s %s\n", s.Name, s.Short)
		}
		fmt.Fprintf(w, "\nRun 'fgrtbench help %s <command>' for a command's flags.\n", c.LongName())
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// flagName spells a flag as the documentation does: -j, --out.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// printFlags lists every flag of fs in name order, with its argument's
// kind, its meaning and its default (left out when it is the zero value,
// as flag.PrintDefaults does, or when the meaning states it).
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		kind, usage := flag.UnquoteUsage(f)
		line := "  " + flagName(f.Name)
		if kind != "" {
			line += " " + kind
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "        %s", strings.ReplaceAll(usage, "\n", "\n        "))
		// A meaning that states its default in words ("the number of
		// CPUs") keeps them: the value here would be this machine's.
		if def := defaultText(f); def != "" && !strings.Contains(usage, "(default") {
			fmt.Fprintf(w, " (default %s)", def)
		}
		fmt.Fprintln(w)
	})
}

// defaultText is a flag's default as printed in help: "" for a zero value,
// quoted for a string.
func defaultText(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "0s", "map[]":
		return ""
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, isString := g.Get().(string); isString {
			return fmt.Sprintf("%q", f.DefValue)
		}
	}
	return f.DefValue
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
