package command

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// PrintUsage prints what both 'PROG help CMD' and 'PROG CMD -h' print: the
// usage line, the long help, every flag with its default, and the
// subcommands.
func PrintUsage(w io.Writer, prog string, c *Command) {
	fmt.Fprintf(w, "Usage: %s %s %s\n\n", prog, c.LongName(), c.UsageLine)
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
		fmt.Fprintf(w, "\nRun '%s help %s <command>' for a command's flags.\n", prog, c.LongName())
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// FlagName spells a flag as the documentation does: -j, --out.
func FlagName(name string) string {
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
		line := "  " + FlagName(f.Name)
		if kind != "" {
			line += " " + kind
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "        %s", strings.ReplaceAll(usage, "\n", "\n        "))
		// A meaning that states its default in words ("the number of
		// CPUs") keeps them: the value here would be this machine's.
		if def := DefaultText(f); def != "" && !strings.Contains(usage, "(default") {
			fmt.Fprintf(w, " (default %s)", def)
		}
		fmt.Fprintln(w)
	})
}

// DefaultText is a flag's default as printed in help: "" for a zero value,
// quoted for a string.
func DefaultText(f *flag.Flag) string {
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

// FlagError words a flag parse error; an unknown flag gets the nearest
// flag of the command, when one is near. Other errors pass unchanged.
func FlagError(fs *flag.FlagSet, err error) string {
	if m := invalidValue.FindStringSubmatch(err.Error()); m != nil {
		// The flag package's "invalid value "0" for flag -timeout: ..."
		// names the flag as no documentation does: say "--timeout 0".
		value, _ := strconv.Unquote(m[1])
		return FlagName(m[2]) + " " + value + strings.TrimPrefix(": "+m[3], ": "+m[1])
	}
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return err.Error()
	}
	name = strings.TrimLeft(name, "-")
	msg := "unknown flag " + FlagName(name)
	var all []string
	fs.VisitAll(func(f *flag.Flag) { all = append(all, f.Name) })
	if near := Nearest(name, all); near != "" {
		msg += "; did you mean " + FlagName(near) + "?"
	}
	return msg
}

var invalidValue = regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for flag -([^:]+): (.*)$`)

// unknownCommand says that args do not name a command: the word that
// matched nothing (rest[0], under parent when one matched), and the nearest
// valid name when one is near.
func (p Program) unknownCommand(w io.Writer, parent *Command, args, rest []string) {
	word, among, where, help := args[0], p.Commands, p.Name, p.Name+" help"
	if parent != nil {
		word, among = rest[0], parent.Commands
		where, help = p.Name+" "+parent.LongName(), p.Name+" help "+parent.LongName()
	}
	if len(among) == 0 {
		fmt.Fprintf(w, "%s: has no subcommands, got %q; run '%s'\n", where, word, help)
		return
	}
	msg := fmt.Sprintf("%s: unknown command %q", where, word)
	if near := Nearest(word, Names(among)); near != "" {
		msg += fmt.Sprintf("; did you mean %q? (see '%s')", near, help)
	} else {
		msg += fmt.Sprintf(" (commands: %s); see '%s'", strings.Join(Names(among), ", "), help)
	}
	fmt.Fprintln(w, msg)
}

// Nearest returns the candidate closest to word by edit distance, or ""
// when none is close enough to be a likely misspelling (within a third of
// the word's length, at least 2); a candidate that word abbreviates counts
// as one edit away.
func Nearest(word string, candidates []string) string {
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
