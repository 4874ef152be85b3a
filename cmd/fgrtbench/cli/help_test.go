package cli

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

// allCommands lists every command and subcommand with the words that
// select it ("plot all" as {"plot", "all"}).
func allCommands() [][]string {
	var out [][]string
	var walk func(prefix []string, cs []*command.Command)
	walk = func(prefix []string, cs []*command.Command) {
		for _, c := range cs {
			words := append(append([]string(nil), prefix...), c.Name)
			out = append(out, words)
			walk(words, c.Commands)
		}
	}
	walk(nil, Commands())
	return out
}

// commandAt returns the (freshly built) command the words select.
func commandAt(t *testing.T, words []string) *command.Command {
	t.Helper()
	c, rest := command.Find(Commands(), words)
	if c == nil || len(rest) > 0 {
		t.Fatalf("%v selects no command", words)
	}
	return c
}

// TestHelpIsDashH: 'help CMD' prints exactly what 'CMD -h' prints, and that
// text names every flag of the command's flag set with its default, so the
// help cannot drift from the flags.
func TestHelpIsDashH(t *testing.T) {
	for _, words := range allCommands() {
		name := strings.Join(words, " ")
		t.Run(name, func(t *testing.T) {
			hCode, hOut, hErr := runCLI(append(words, "-h")...)
			helpCode, helpOut, helpErr := runCLI(append([]string{"help"}, words...)...)
			if hCode != 0 || helpCode != 0 || hErr != "" || helpErr != "" {
				t.Fatalf("-h exited %d (%q), help exited %d (%q)", hCode, hErr, helpCode, helpErr)
			}
			if hOut != helpOut {
				t.Fatalf("'%s -h' and 'help %s' differ:\n%s\n---\n%s", name, name, hOut, helpOut)
			}
			if !strings.HasPrefix(hOut, "Usage: fgrtbench "+name+" ") {
				t.Errorf("help does not start with the usage line:\n%s", hOut)
			}
			c := commandAt(t, words)
			if c.Short == "" {
				t.Errorf("%s has no short help", name)
			}
			c.Flag.VisitAll(func(f *flag.Flag) {
				line := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(flagName(f.Name)) + `( \S+)?\n.*$`).FindString(hOut)
				if line == "" {
					t.Errorf("help does not list %s:\n%s", flagName(f.Name), hOut)
					return
				}
				if def := command.DefaultText(f); def != "" && !strings.Contains(line, "(default "+def+")") && !strings.Contains(f.Usage, "(default") {
					t.Errorf("help of %s does not give its default %s: %q", flagName(f.Name), def, line)
				}
			})
			for _, s := range c.Commands {
				if !strings.Contains(hOut, "  "+s.Name+" ") {
					t.Errorf("help does not list subcommand %s", s.Name)
				}
			}
		})
	}
}

// TestHelpListsCommandsWithShortHelp: 'fgrtbench help' names every command
// with its one-line help.
func TestHelpListsCommandsWithShortHelp(t *testing.T) {
	code, out, _ := runCLI("help")
	if code != 0 {
		t.Fatalf("help exited %d", code)
	}
	for _, c := range Commands() {
		if !regexp.MustCompile(`(?m)^  ` + c.Name + ` +` + regexp.QuoteMeta(c.Short) + `$`).MatchString(out) {
			t.Errorf("help does not list %q with %q:\n%s", c.Name, c.Short, out)
		}
	}
}

// TestBareInvocationIsAUsageError: 'fgrtbench' alone prints the usage on
// stderr and exits 2, as the go command does; 'help' prints it on stdout.
func TestBareInvocationIsAUsageError(t *testing.T) {
	code, out, errOut := runCLI()
	if code != 2 || out != "" || !strings.Contains(errOut, "Usage: fgrtbench <command>") {
		t.Fatalf("bare: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	_, helpOut, _ := runCLI("help")
	if helpOut != errOut {
		t.Errorf("bare usage and 'help' differ:\n%s\n---\n%s", errOut, helpOut)
	}
}

// TestMisspellingsSuggestTheNearest: a misspelt command, subcommand or flag
// is refused with exit 2 and one line naming the nearest valid one; a word
// near nothing gets no guess.
func TestMisspellingsSuggestTheNearest(t *testing.T) {
	cases := []struct {
		args []string
		want string // "" = no suggestion
	}{
		{[]string{"reproduse"}, `did you mean "reproduce"?`},
		{[]string{"chek", "--baseline", "x"}, `did you mean "check"?`},
		{[]string{"mrege"}, `did you mean "merge"?`},
		{[]string{"help", "runtim"}, `did you mean "runtime"?`},
		{[]string{"plot", "partition"}, `did you mean "partitions"?`},
		{[]string{"help", "plot", "al"}, `did you mean "all"?`},
		{[]string{"frobnicate"}, ""},
		{[]string{"run", "--spc", "x.yaml"}, "did you mean --spec?"},
		{[]string{"reproduce", "--no-rep"}, "did you mean --no-report?"},
		{[]string{"reproduce", "--dataset", "wine"}, "did you mean --datasets?"},
		{[]string{"report", "--result", "out"}, "did you mean --results?"},
		{[]string{"check", "--basline", "b.json"}, "did you mean --baseline?"},
		{[]string{"run", "-J", "2"}, "did you mean -j?"},
		{[]string{"plot", "all", "--resuls", "out"}, "did you mean --results?"},
		{[]string{"fetch", "--no-such-flag"}, ""},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(c.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line", c.args, code, out, errOut)
			continue
		}
		if c.want == "" {
			if strings.Contains(errOut, "did you mean") {
				t.Errorf("%v: guessed for a word near nothing: %q", c.args, errOut)
			}
		} else if !strings.Contains(errOut, c.want) {
			t.Errorf("%v: %q lacks %q", c.args, errOut, c.want)
		}
	}
}

// doubledPrefix matches "fgrtbench CMD: CMD: ..." and "fgrtbench CMD: CMD
// --flag: ...": a command named twice at the start of its message.
var doubledPrefix = regexp.MustCompile(`^fgrtbench ([a-z]+(?: [a-z]+)?): (?:fgrtbench )?([a-z]+)[: ]`)

// TestNoDoubledPrefix triggers the failures of every command that are cheap
// to reach and checks that each message names its command once, at the
// start.
func TestNoDoubledPrefix(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	baseline := filepath.Join(dir, "b.json")
	if err := os.WriteFile(baseline, []byte(`{"rows": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(spec, []byte("datasets: [wine]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The pattern itself: it must catch the doubled forms and pass the rest.
	for line, doubled := range map[string]bool{
		"fgrtbench check: check: --spec names a study":  true,
		"fgrtbench check: check --update: the results":  true,
		"fgrtbench plot all: plot all: nothing to draw": true,
		"fgrtbench runtime: runtime: trials must be":    true,
		"fgrtbench check: --update: the results":        false,
		"fgrtbench run: running out of checksums":       false,
	} {
		m := doubledPrefix.FindStringSubmatch(line)
		if got := m != nil && strings.HasPrefix(m[1], m[2]); got != doubled {
			t.Fatalf("doubledPrefix on %q: %v, want %v", line, got, doubled)
		}
	}
	missing := filepath.Join(dir, "absent")
	cases := [][]string{
		{"run"},
		{"run", "--spec", missing},
		{"run", "--spec", spec, "--out", filepath.Join(dir, "o1"), "-j", "0"},
		{"reproduce", "--methods", "nosuch", "--out", filepath.Join(dir, "o2")},
		{"reproduce", "--protocol", "paper", "--repeats", "3", "--out", filepath.Join(dir, "o3")},
		{"check"},
		{"check", "--baseline", missing},
		{"check", "--baseline", baseline, "--results", empty, "--spec", spec},
		{"check", "--baseline", baseline, "--update", "--shard", "1/2"},
		{"report", "--results", missing},
		{"merge"},
		{"merge", "--out", filepath.Join(dir, "m"), missing},
		{"plot"},
		{"plot", "all"},
		{"plot", "all", "--results", empty},
		{"plot", "partitions", "--dataset", "wine"},
		{"plot", "partitions", "--dataset", missing + ".csv", "--feature", "x"},
		{"folds"},
		{"folds", "--dataset", "nosuch"},
		{"folds", "--dataset", "wine", "--protocol", "nosuch"},
		{"rules"},
		{"rules", "--dataset", "nosuch"},
		{"runtime", "--samples", "ten"},
		{"runtime", "--trials", "0", "--out", filepath.Join(dir, "rt")},
		{"fetch", "nosuch"},
		{"datasets", "nosuch"},
		{"methods", "nosuch"},
	}
	for _, args := range cases {
		code, _, errOut := runCLI(args...)
		if code == 0 {
			t.Errorf("%v exited 0", args)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
			if !strings.HasPrefix(line, "fgrtbench") {
				continue // a progress line or a note
			}
			if m := doubledPrefix.FindStringSubmatch(line); m != nil && strings.HasPrefix(m[1], m[2]) {
				t.Errorf("%v: doubled prefix: %q", args, line)
			}
		}
	}
}

// TestVersionFlag: --version prints what the version command prints, which
// names the revision the manifest records.
func TestVersionFlag(t *testing.T) {
	code, flagOut, _ := runCLI("--version")
	code2, cmdOut, _ := runCLI("version")
	if code != 0 || code2 != 0 || flagOut != cmdOut || !strings.HasPrefix(flagOut, "fgrtbench ") {
		t.Fatalf("--version: %d %q; version: %d %q", code, flagOut, code2, cmdOut)
	}
	m := manifest.New(nil, 0, "")
	if m.VCSRevision == "" {
		t.Skip("no VCS revision here (not a git checkout); cmd/fgrtbench tests the linker-stamped binary")
	}
	if !strings.Contains(flagOut, m.VCSRevision) {
		t.Errorf("--version %q does not name the revision %s", flagOut, m.VCSRevision)
	}
}

// TestOneOutputDefault: --out is what a command writes and --results what it
// reads, and both default to "out", so that reproduce, report, runtime and
// plot meet in one directory without flags. The exceptions are modes, not
// directories: check without --results runs the study, into a temporary
// directory unless --out is given; merge must be told where to write (a
// default would merge over a reproduction's own results); plot all draws
// into the report of the results it reads unless --out is given; rules
// fits unless --results names stored rules.
func TestOneOutputDefault(t *testing.T) {
	exceptions := map[string]string{"check --out": "", "check --results": "", "merge --out": "", "plot all --out": "", "rules --results": ""}
	seen := 0
	for _, words := range allCommands() {
		c := commandAt(t, words)
		for _, name := range []string{"out", "results"} {
			f := c.Flag.Lookup(name)
			if f == nil {
				continue
			}
			seen++
			key := strings.Join(words, " ") + " --" + name
			want, ok := exceptions[key]
			if !ok {
				want = "out"
			}
			if f.DefValue != want {
				t.Errorf("%s defaults to %q, want %q", key, f.DefValue, want)
			}
		}
	}
	if seen < 8 {
		t.Errorf("only %d --out/--results flags found; the walk misses commands", seen)
	}
}

// TestStrayArgumentsAreRefused: a command that reads only flags refuses an
// argument after them (exit 2, one line) rather than ignoring it, and a flag
// after the arguments is refused rather than read as a name; the commands
// that take names or files accept them.
func TestStrayArgumentsAreRefused(t *testing.T) {
	for _, words := range allCommands() {
		c := commandAt(t, words)
		if c.Run == nil || c.Positional {
			continue
		}
		code, out, errOut := runCLI(append(words, "stray")...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `unexpected argument "stray"`) {
			t.Errorf("%v stray: exit %d, stdout %q, stderr %q", words, code, out, errOut)
		}
	}
	for _, args := range [][]string{{"merge", "a", "b", "--out", "m"}, {"fetch", "wine", "--mirror=x"}, {"report", "x", "--results", "y"}} {
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "after the arguments; flags come first") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, out, errOut := runCLI("methods", "cart"); code != 0 || !strings.Contains(out, "cart") {
		t.Errorf("methods cart: exit %d %q %q", code, out, errOut)
	}
}
