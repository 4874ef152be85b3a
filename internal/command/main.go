package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Program is a command line's top: its name, its commands, and what it
// adds to the dispatch.
type Program struct {
	// Name is the program's name, which starts every message.
	Name     string
	Commands []*Command
	// Help prints the program's own help: what 'PROG help' prints, and a
	// bare invocation on stderr.
	Help func(w io.Writer, cmds []*Command)
	// Check vets a command's parsed flags before it runs (nil: none); its
	// error is a usage error.
	Check func(c *Command) error
}

// UsageError is a command's complaint about how it was invoked (a missing
// required flag): Main prints it with the pointer to the command's help and
// exits 2.
type UsageError string

func (e UsageError) Error() string { return string(e) }

// ExitCoder is a failure with an exit status of its own; any other failure
// exits 1.
type ExitCoder interface{ ExitCode() int }

// Main runs the command args (without the program name) select and returns
// the process exit code: 0 success, 1 failure, 2 usage error. Every message
// a command's failure prints starts with one "PROG CMD: ", added here.
func (p Program) Main(ctx context.Context, env *Env, args []string) int {
	if len(args) == 0 {
		// Like the go command: usage on stderr, and a status a script
		// notices (a bare invocation did nothing it was asked for).
		p.Help(env.Stderr, p.Commands)
		return 2
	}
	if isHelp(args[0]) || args[0] == "help" {
		return p.help(env, args[1:])
	}
	c, rest := Find(p.Commands, args)
	switch {
	case c == nil:
		p.unknownCommand(env.Stderr, nil, args, rest)
		return 2
	case c.Run == nil:
		return p.parentOnly(env, c, args, rest)
	}
	if code, ok := p.parse(env, c, rest); !ok {
		return code
	}
	return p.exitCode(env, c, c.Run(ctx, env, c.Flag.Args()))
}

func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "-help" }

// help is 'PROG help [CMD...]'.
func (p Program) help(env *Env, words []string) int {
	if len(words) == 0 {
		p.Help(env.Stdout, p.Commands)
		return 0
	}
	c, rest := Find(p.Commands, words)
	if c == nil || len(rest) > 0 {
		p.unknownCommand(env.Stderr, c, words, rest)
		return 2
	}
	PrintUsage(env.Stdout, p.Name, c)
	return 0
}

// parentOnly answers a command that has subcommands and no Run of its own.
func (p Program) parentOnly(env *Env, c *Command, args, rest []string) int {
	switch {
	case len(rest) > 0 && isHelp(rest[0]):
		PrintUsage(env.Stdout, p.Name, c)
		return 0
	case len(rest) > 0:
		p.unknownCommand(env.Stderr, c, args, rest)
	default:
		fmt.Fprintf(env.Stderr, "%s %s: need a subcommand: %s (see '%s %s -h')\n", p.Name, c.LongName(), strings.Join(Names(c.Commands), " or "), p.Name, c.LongName())
	}
	return 2
}

// parse parses c's flags from args; false with the exit code when the
// command must not run (-h, or a usage error, printed here).
func (p Program) parse(env *Env, c *Command, args []string) (int, bool) {
	err := c.Flag.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		PrintUsage(env.Stdout, p.Name, c)
		return 0, false
	}
	if err == nil {
		err = flagsFirst(c)
	}
	if err == nil && p.Check != nil {
		err = p.Check(c)
	}
	if err == nil && !c.Positional && c.Flag.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q: %s takes flags only", c.Flag.Arg(0), c.LongName())
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s %s: %s (see '%s %s -h')\n", p.Name, c.LongName(), FlagError(&c.Flag, err), p.Name, c.LongName())
		return 2, false
	}
	return 0, true
}

// flagsFirst refuses a flag after the arguments: the flag package stops at
// the first argument, so it would be read as a name ('merge a b --out m').
func flagsFirst(c *Command) error {
	for _, a := range c.Flag.Args() {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && c.Flag.Lookup(name) != nil {
			return fmt.Errorf("flag %s after the arguments; flags come first", FlagName(name))
		}
	}
	return nil
}

// exitCode prints a command's failure and returns its exit status.
func (p Program) exitCode(env *Env, c *Command, err error) int {
	var ue UsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(env.Stderr, "%s %s: %s (see '%s %s -h')\n", p.Name, c.LongName(), ue, p.Name, c.LongName())
		return 2
	}
	// A library's errors start with its package's name, which may be the
	// command's own: print the name once.
	msg := strings.TrimPrefix(err.Error(), c.Name+": ")
	// A step stopped by a first SIGINT or SIGTERM that did not word its
	// stop itself (reading a spec or a data file): say so, not Go's
	// "context canceled".
	if errors.Is(err, context.Canceled) && strings.HasSuffix(msg, context.Canceled.Error()) {
		msg = "interrupted by a signal (SIGINT or SIGTERM)"
	}
	fmt.Fprintf(env.Stderr, "%s %s: %s\n", p.Name, c.LongName(), msg)
	var ec ExitCoder
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	return 1
}
