//go:build unix

package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

// runnableCommands returns every command and subcommand, newly built.
func runnableCommands() []*command.Command {
	var out []*command.Command
	var walk func(cs []*command.Command)
	walk = func(cs []*command.Command) {
		for _, c := range cs {
			if c.Run != nil {
				out = append(out, c)
			}
			walk(c.Commands)
		}
	}
	walk(Commands())
	return out
}

// absentDefault are the flags whose default 0 means that the flag was not
// given (no shard count; timing ignored): the value 0 itself is refused.
var absentDefault = map[string]bool{"shard-count": true, "timing-ratio": true}

// TestEveryNumericFlagHasARange holds every command's numeric flags to
// flagRanges: each has a range its default satisfies, every duration flag
// checks itself, and every entry of the table names a flag that exists.
func TestEveryNumericFlagHasARange(t *testing.T) {
	used := map[string]bool{}
	numeric := 0
	for _, c := range runnableCommands() {
		c.Flag.VisitAll(func(f *flag.Flag) {
			if _, ok := f.Value.(positiveDuration); ok {
				numeric++
				return
			}
			g, ok := f.Value.(flag.Getter)
			if !ok {
				return
			}
			switch g.Get().(type) {
			case int, int64, uint, uint64, float64:
			case time.Duration:
				t.Errorf("%s %s: a duration flag must refuse 0, negative and overflowing values (use positiveDuration)", c.LongName(), flagName(f.Name))
				return
			default:
				return
			}
			numeric++
			chk := rangeOf(c, f.Name)
			if chk == nil {
				t.Errorf("%s %s: numeric flag without a range in flagRanges", c.LongName(), flagName(f.Name))
				return
			}
			if _, ok := flagRanges[c.LongName()+" "+f.Name]; ok {
				used[c.LongName()+" "+f.Name] = true
			} else {
				used[f.Name] = true
			}
			if absentDefault[f.Name] && f.DefValue == "0" {
				return // 0 stands for "not given" and cannot be given
			}
			if err := chk(g.Get()); err != nil {
				t.Errorf("%s %s: the default %s is out of its own range: %v", c.LongName(), flagName(f.Name), f.DefValue, err)
			}
		})
	}
	for key := range flagRanges {
		if !used[key] {
			t.Errorf("flagRanges[%q] names no numeric flag of any command", key)
		}
	}
	// run, reproduce and check share 4 (and --timeout), check has 2 more,
	// external try 1, folds 2, reproduce 2, report 1, rules 5, runtime 4,
	// and --timeout is everywhere data is read: a walk that misses
	// commands shows here.
	if numeric < 30 {
		t.Errorf("found %d numeric flags; the walk missed some", numeric)
	}
}

// TestNumericFlagsOutOfRange (issue 30, class "bounded resources"): every
// numeric flag of every command refuses values outside its range in one
// line with exit status 2, before anything runs or is written.
func TestNumericFlagsOutOfRange(t *testing.T) {
	defer func() { study.MaxUnits = study.DefaultMaxUnits }()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "d.csv")
	writeData(t, data, 0)
	spec := filepath.Join(tmp, "s.yaml")
	writeSpec(t, spec, data, 3)
	base := filepath.Join(tmp, "b.json")
	out := filepath.Join(tmp, "out")
	withSpec := map[string][]string{
		"run":          {"run", "--spec", spec, "--out", out},
		"reproduce":    {"reproduce", "--datasets", data, "--methods", "cart", "--protocol", "clean", "--out", out},
		"check":        {"check", "--baseline", base, "--spec", spec, "--out", out},
		"external try": {"external", "try", "--spec", spec},
		"folds":        {"folds", "--dataset", data, "--out", out},
		"report":       {"report", "--results", out},
		"rules":        {"rules", "--dataset", data},
		"runtime":      {"runtime", "--out", out, "--samples", "10", "--features", ""},
		"fetch":        {"fetch", "--cache", out},
	}
	for _, c := range []struct {
		cmd, flag string
		bad       []string
		want      string // in the message besides the flag's name
	}{
		{"run", "j", []string{"0", "-1", "4097", "200000"}, "from 1 to 4096, the ceiling the README documents"},
		{"reproduce", "j", []string{"0", "4097"}, "out of range"},
		{"check", "j", []string{"-3", "9999"}, "out of range"},
		{"run", "max-units", []string{"0", "-1"}, "at least 1"},
		{"run", "shard-count", []string{"0", "-2"}, "at least 1"},
		{"run", "worker-jobs", []string{"-1"}, "0 (a worker serves the whole run) or more"},
		{"check", "timing-ratio", []string{"-1", "0", "0.5", "NaN", "+Inf"}, "at least 1"},
		{"check", "limit", []string{"-1"}, "0 (all) or more"},
		{"external try", "fold", []string{"-1"}, "0 or more"},
		{"check", "worker-jobs", []string{"-5"}, "or more"},
		{"run", "j", []string{"99999999999999999999"}, "value out of range"},
		{"run", "max-units", []string{"1e3"}, "parse error"},
		{"folds", "folds", []string{"1", "0", "-4"}, "at least 2"},
		{"folds", "seed", []string{"-1", "4294967296"}, "0..4294967295"},
		{"reproduce", "seed", []string{"-1", "4294967296"}, "0..4294967295"},
		{"reproduce", "repeats", []string{"0", "-1"}, "at least 1"},
		{"report", "rope", []string{"0", "-0.1", "1", "NaN"}, "above 0 and below 1"},
		{"rules", "max-rules", []string{"0", "-1"}, "below the minimum"},
		{"rules", "coverage", []string{"NaN", "-1"}, "coverage"},
		{"rules", "min-improvement", []string{"NaN"}, "NaN"},
		{"rules", "repeat", []string{"-1"}, "0 or more"},
		{"rules", "fold", []string{"-2"}, "0 or more"},
		{"runtime", "trials", []string{"0", "-1"}, "at least 1"},
		{"runtime", "samples-features", []string{"0"}, "at least 1"},
		{"runtime", "features-samples", []string{"-1"}, "at least 1"},
		{"runtime", "max-seconds-per-fit", []string{"-1", "NaN", "Inf"}, "0 (no limit) or more"},
		{"fetch", "timeout", []string{"0", "-1s"}, "not positive"},
		{"fetch", "timeout", []string{"99999999999h", "2562048h"}, "out of range: the longest duration is"},
		{"run", "timeout", []string{"9223372036854775808ns"}, "out of range"},
		{"fetch", "timeout", []string{"5", "abc"}, "not a duration"},
	} {
		for _, v := range c.bad {
			args := append(append([]string{}, withSpec[c.cmd]...), flagName(c.flag), v)
			before := treeHash(t, tmp, "")
			code, stdout, stderr := runCLI(args...)
			if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("%s %s %s: exit %d, stdout %q, stderr %q; want exit 2 and one line", c.cmd, flagName(c.flag), v, code, stdout, stderr)
			}
			for _, w := range []string{flagName(c.flag), v, c.want} {
				if !strings.Contains(stderr, w) {
					t.Errorf("%s %s %s: %q does not say %q", c.cmd, flagName(c.flag), v, stderr, w)
				}
			}
			if treeHash(t, tmp, "") != before {
				t.Errorf("%s %s %s changed files", c.cmd, flagName(c.flag), v)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("%s %s %s created its output", c.cmd, flagName(c.flag), v)
			}
		}
	}
}

// TestREADMEStatesTheJobsCeiling keeps the README's -j ceiling equal to
// the runner's.
func TestREADMEStatesTheJobsCeiling(t *testing.T) {
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("`-j` (on `run`, `reproduce` and `check`) takes 1 to %d", runner.MaxJobs); !strings.Contains(strings.Join(strings.Fields(string(b)), " "), want) {
		t.Errorf("README.md does not say %q", want)
	}
}
