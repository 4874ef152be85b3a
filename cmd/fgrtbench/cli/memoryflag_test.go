package cli

import (
	"flag"
	"math"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/internal/memsize"
)

// TestMemoryFlagRefusals: a bad --memory is one line, exit 2, before
// anything is written, in every command that runs a study.
func TestMemoryFlagRefusals(t *testing.T) {
	root := t.TempDir()
	out := root + "/out"
	cases := []struct{ value, want string }{
		{"4XB", "--memory 4XB: not a size"},
		{"0", "at least 1 byte"},
		{"-2GB", "at least 1 byte"},
		{"150%", "above 0 and at most 100"},
		{"0%", "above 0 and at most 100"},
		{"", "empty size"},
	}
	for _, cmd := range []string{"run", "reproduce", "check"} {
		for _, c := range cases {
			refusedWith(t, root, 2, []string{c.want}, cmd, "--memory", c.value, "--out", out)
		}
	}
}

// TestMemoryFlagBudget: what --memory gives the runner and the words the
// manifest keeps.
func TestMemoryFlagBudget(t *testing.T) {
	machine := memsize.Machine{Bytes: 24 << 30, Source: "MemTotal of /proc/meminfo"}
	cases := []struct {
		name    string
		machine memsize.Machine
		args    []string
		bytes   int64
		source  string
	}{
		{"default", machine, nil, 12 << 30, "the default, 50% of 25.77 GB (MemTotal of /proc/meminfo)"},
		{"size", machine, []string{"--memory", "1.3GB"}, 1.3e9, "--memory 1.3GB"},
		{"share", machine, []string{"--memory", "25%"}, 6 << 30, "--memory 25%"},
		{"unknown machine", memsize.Machine{}, nil, 0, "the machine's memory could not be read; give --memory"},
		{"unknown machine, size", memsize.Machine{}, []string{"--memory", "2GiB"}, 2 << 30, "--memory 2GiB"},
	}
	for _, c := range cases {
		f := memoryFlag{machine: c.machine, bytes: math.MaxInt64}
		if c.machine.Bytes > 0 {
			f.bytes = c.machine.Bytes * defaultMemoryShare / 100
		}
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.Var(&f, "memory", memoryUsage)
		if err := fs.Parse(c.args); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if b, src := f.budget(); b != c.bytes || src != c.source {
			t.Errorf("%s: budget %d, %q; want %d, %q", c.name, b, src, c.bytes, c.source)
		}
		if got := f.Get().(int64); got < 1 || rangeOf(&command.Command{Name: "run"}, "memory")(got) != nil {
			t.Errorf("%s: Get() = %d is out of --memory's own range", c.name, got)
		}
	}
	f := memoryFlag{machine: memsize.Machine{}}
	if err := f.Set("50%"); err == nil || !strings.Contains(err.Error(), "machine's memory is unknown") {
		t.Errorf("a share of an unknown machine's memory: %v, want a refusal", err)
	}
}
