package cli

import (
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

// valueCheck refuses a numeric flag's value that its command cannot use,
// saying why; v is what the flag's Get returns (int, int64, float64).
type valueCheck func(v any) error

// flagRanges declares the values of every numeric flag, so that an
// out-of-range value is refused in one line before the command runs,
// instead of being read as a default ("--max-units 0"), as "ignore"
// ("--timing-ratio -1") or as nothing at all. A key is a flag's name, or
// "COMMAND FLAG" where a flag of that name means something else in one
// command. TestEveryNumericFlagHasARange holds every command's numeric
// flags to this table; duration flags check themselves (positiveDuration).
var flagRanges = map[string]valueCheck{
	// Shared by run, reproduce and check.
	"j":           intIn(1, runner.MaxJobs, "busy threads from 1 to "+strconv.Itoa(runner.MaxJobs)+", the ceiling the README documents"),
	"max-units":   intIn(1, math.MaxInt64, "the largest study to accept, in fits: at least 1"),
	"memory":      intIn(1, math.MaxInt64, "a memory budget of at least 1 byte"),
	"shard-count": intIn(1, math.MaxInt32, "the number of shards: at least 1"),
	"worker-jobs": intIn(0, math.MaxInt32, "jobs per external worker: 0 (a worker serves the whole run) or more"),

	"check timing-ratio": floatIn(1, math.MaxFloat64, "the multiple of the baseline's fit time to flag: at least 1 (omit the flag to ignore timing)"),
	"check limit":        intIn(0, math.MaxInt32, "differences to print: 0 (all) or more"),

	"external try fold": intIn(0, math.MaxInt32, "a fold index: 0 or more"),

	"folds seed":        intIn(0, 1<<32-1, "a fold seed in numpy's legacy range 0..4294967295"),
	"folds folds":       intIn(2, math.MaxInt32, "the number of folds: at least 2"),
	"reproduce seed":    intIn(0, 1<<32-1, "a fold seed in numpy's legacy range 0..4294967295"),
	"reproduce repeats": intIn(1, math.MaxInt32, "the number of repeats: at least 1"),

	"report rope": floatOpen(0, 1, "a half-width as a fraction of accuracy, above 0 and below 1 (0.01 = one percentage point)"),

	// rules' FGRT parameters are the method's own: its declaration bounds
	// them, as it does in a spec.
	"rules max-rules":       param("fgrt", "max_rules"),
	"rules coverage":        param("fgrt", "coverage_threshold"),
	"rules min-improvement": param("fgrt", "min_improvement"),
	"rules repeat":          intIn(0, math.MaxInt32, "a repeat index: 0 or more"),
	"rules fold":            intIn(-1, math.MaxInt32, "a fold index: 0 or more (-1, the default, is the representative fold)"),

	"runtime samples-features":    intIn(1, math.MaxInt32, "a number of features: at least 1"),
	"runtime features-samples":    intIn(1, math.MaxInt32, "a number of samples: at least 1"),
	"runtime trials":              intIn(1, math.MaxInt32, "trials per size: at least 1"),
	"runtime max-seconds-per-fit": floatIn(0, math.MaxFloat64, "seconds: 0 (no limit) or more"),

	"speed scaling-rows": intIn(100, math.MaxInt32, "rows of the large study's CSV: at least 100"),
	"speed rounds":       intIn(1, 100, "a number of rounds from 1 to 100"),
}

// rangeOf returns the check of flag name in command c, nil when it has
// none.
func rangeOf(c *command.Command, name string) valueCheck {
	if chk, ok := flagRanges[c.LongName()+" "+name]; ok {
		return chk
	}
	return flagRanges[name]
}

// checkFlagRanges checks the numeric flags given on the command line (a
// default is in range: the table's test checks it).
func checkFlagRanges(c *command.Command) error {
	var err error
	c.Flag.Visit(func(f *flag.Flag) {
		chk := rangeOf(c, f.Name)
		g, ok := f.Value.(flag.Getter)
		if err != nil || chk == nil || !ok {
			return
		}
		if e := chk(g.Get()); e != nil {
			err = fmt.Errorf("%s %s: %v", flagName(f.Name), f.Value, e)
		}
	})
	return err
}

// intIn accepts integers in [lo, hi]; want says what the flag takes.
func intIn(lo, hi int64, want string) valueCheck {
	return func(v any) error {
		var n int64
		switch x := v.(type) {
		case int:
			n = int64(x)
		case int64:
			n = x
		default:
			return fmt.Errorf("not an integer flag (%T)", v)
		}
		if n < lo || n > hi {
			return fmt.Errorf("out of range: want %s", want)
		}
		return nil
	}
}

// floatIn accepts finite numbers in [lo, hi].
func floatIn(lo, hi float64, want string) valueCheck {
	return func(v any) error {
		x, ok := v.(float64)
		if !ok {
			return fmt.Errorf("not a number flag (%T)", v)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) || x < lo || x > hi {
			return fmt.Errorf("out of range: want %s", want)
		}
		return nil
	}
}

// floatOpen accepts finite numbers in (lo, hi).
func floatOpen(lo, hi float64, want string) valueCheck {
	return func(v any) error {
		x, ok := v.(float64)
		if !ok {
			return fmt.Errorf("not a number flag (%T)", v)
		}
		if math.IsNaN(x) || x <= lo || x >= hi {
			return fmt.Errorf("out of range: want %s", want)
		}
		return nil
	}
}

// param checks a flag that sets a registered method's parameter against
// the parameter's declaration.
func param(method, name string) valueCheck {
	return func(v any) error {
		m, err := methods.Lookup(method)
		if err != nil {
			return err
		}
		p, ok := m.Param(name)
		if !ok {
			return fmt.Errorf("method %s has no parameter %s", method, name)
		}
		return p.Check(fmt.Sprint(v))
	}
}
