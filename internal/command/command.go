// Package command is a command line of commands and subcommands in the go
// command's pattern (cmd/go/internal/base): each is a *Command value with a
// usage line, a short and a long help, and a flag set bound before
// anything runs, so that 'PROG help CMD' and 'PROG CMD -h' print the same
// text, listing every flag. Main dispatches a command line to its command:
// it parses the flags, words every mistake in one line with the nearest
// valid name, and turns the outcome into an exit status.
package command

import (
	"context"
	"flag"
	"io"
)

// Command is one command (or, inside Commands, a subcommand such as
// 'plot all').
type Command struct {
	// Name is the word that selects the command.
	Name string
	// UsageLine is the command's arguments, printed after its name.
	UsageLine string
	// Short is the one line the program's help lists.
	Short string
	// Long is the description that 'help CMD' and 'CMD -h' print above the
	// flags ("" repeats Short).
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

// SetUp makes c's flag set report errors rather than exit or print, and
// links the subcommands to their parent; it returns c.
func SetUp(c *Command, parent *Command) *Command {
	c.parent = parent
	c.Flag.Init(c.LongName(), flag.ContinueOnError)
	c.Flag.SetOutput(io.Discard)
	c.Flag.Usage = func() {}
	for _, s := range c.Commands {
		SetUp(s, c)
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

// Find descends from the top-level commands along args' leading words and
// returns the command they name and the arguments after it; nil when the
// first word names no command.
func Find(cmds []*Command, args []string) (*Command, []string) {
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

// Names lists the commands' names.
func Names(cs []*Command) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}
