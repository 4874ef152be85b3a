package cli

import (
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/internal/memsize"
)

// defaultMemoryShare is the default --memory: this percentage of the
// machine's memory (memsize.Detect: MemTotal, or a lower control-group
// limit). Half leaves the rest to the system and to other jobs on a shared
// machine, and is far above what the paper's study needs (tens of MB), so
// the default binds only where a study's data are large for the machine.
const defaultMemoryShare = 50

// memoryFlag is --memory: a budget in bytes, given as a size ("4GB",
// "1500MB") or a share of the machine's memory ("50%"). Get is the budget
// in bytes (math.MaxInt64 for none, when the machine's memory is unknown
// and no budget was given), so the range table checks it like any number.
type memoryFlag struct {
	machine memsize.Machine
	bytes   int64
	given   string // the flag's text; "" for the default
}

func newMemoryFlag() memoryFlag {
	m := memsize.Detect()
	f := memoryFlag{machine: m, bytes: math.MaxInt64}
	if m.Bytes > 0 {
		f.bytes = m.Bytes * defaultMemoryShare / 100
	}
	return f
}

func (f *memoryFlag) String() string {
	if f == nil {
		return ""
	}
	if f.given != "" {
		return f.given
	}
	return fmt.Sprintf("%d%%", defaultMemoryShare)
}

func (f *memoryFlag) Set(s string) error {
	n, err := memsize.Parse(s, f.machine.Bytes)
	if err != nil {
		return err
	}
	f.bytes, f.given = n, s
	return nil
}

func (f *memoryFlag) Get() any { return f.bytes }

// budget is the runner's budget in bytes (0 for none) and the manifest's
// words for where it came from.
func (f *memoryFlag) budget() (int64, string) {
	switch {
	case f.given != "":
		return f.bytes, "--memory " + f.given
	case f.bytes == math.MaxInt64:
		return 0, "the machine's memory could not be read; give --memory"
	}
	return f.bytes, fmt.Sprintf("the default, %d%% of %s (%s)", defaultMemoryShare, memsize.Format(f.machine.Bytes), f.machine.Source)
}

// memoryUsage is --memory's help text.
const memoryUsage = "memory budget of the run: a size (4GB, 1500MB, 512MiB) or a share of the machine's memory (50%); units start only while their estimated footprints fit in it, and one larger than the whole budget runs alone (default: 50% of MemTotal, or of a lower cgroup limit); results do not depend on it"
