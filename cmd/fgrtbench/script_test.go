//go:build unix

package main

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run "exec fgrtbench ...": testscript re-runs
// this test binary as the command, with the real main, so every script
// exercises the binary a user runs (flags, exit status, stderr) without a
// separate build.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"fgrtbench": main})
}

// TestScripts runs the fault cases in testdata/script, one file per case:
// each injects a fault into a results directory, a shard or a baseline and
// asserts the exit status, the one-line message and what was (not) written.
// The cases that need root and a real full disk stay in scripts/faults.sh.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			// Each script has its own dataset cache, so no script sees
			// another's files or the user's cache.
			env.Setenv("FGRT_CACHE_DIR", env.WorkDir+"/cache")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			// [mirror]: the KEEL dataset mirror is available; a script
			// that needs the real files starts with
			// "[!mirror] skip 'FGRT_DATA_MIRROR is unset'".
			if cond == "mirror" {
				return os.Getenv("FGRT_DATA_MIRROR") != "", nil
			}
			// [startupcheck]: the binary refuses a too low ulimit -v
			// before the Go runtime starts (a build with cgo on Linux).
			if cond == "startupcheck" {
				return limitCheckedBeforeRuntime, nil
			}
			return false, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"truncbytes": truncBytes,
			"setfield":   setField,
			"replace":    replaceFirst,
			"lock":       lockFile,
			"unlock":     unlockFile,
		},
	})
}

// truncBytes FILE N cuts the last N bytes of FILE: a crash in the middle of
// appending a row.
func truncBytes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: truncbytes FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	if n > len(b) {
		ts.Fatalf("%s has %d bytes, cannot cut %d", args[0], len(b), n)
	}
	ts.Check(os.WriteFile(path, b[:len(b)-n], 0o644))
}

// setField FILE LINE COLUMN VALUE replaces one comma-separated field
// (both counted from 1) of FILE: an edited row of results.csv.
func setField(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: setfield FILE LINE COLUMN VALUE")
	}
	line, err := strconv.Atoi(args[1])
	ts.Check(err)
	col, err := strconv.Atoi(args[2])
	ts.Check(err)
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	lines := strings.Split(string(b), "\n")
	if line < 1 || line > len(lines) {
		ts.Fatalf("%s has no line %d", args[0], line)
	}
	fields := strings.Split(lines[line-1], ",")
	if col < 1 || col > len(fields) {
		ts.Fatalf("%s:%d has no column %d", args[0], line, col)
	}
	fields[col-1] = args[3]
	lines[line-1] = strings.Join(fields, ",")
	ts.Check(os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644))
}

// replaceFirst FILE REGEXP TEXT replaces the first match of REGEXP in FILE
// with TEXT: a tampered baseline. No match is an error, so a script cannot
// pass by editing nothing.
func replaceFirst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE REGEXP TEXT")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	loc := re.FindIndex(b)
	if loc == nil {
		ts.Fatalf("%s: no match for %s", args[0], args[1])
	}
	out := append(append(append([]byte{}, b[:loc[0]]...), args[2]...), b[loc[1]:]...)
	if bytes.Equal(out, b) {
		ts.Fatalf("%s: replacing %s with %s changes nothing", args[0], args[1], args[2])
	}
	ts.Check(os.WriteFile(path, out, 0o644))
}

// held are the files that lock holds, by absolute path.
var held sync.Map

// lockFile FILE takes the exclusive flock(2) lock a run holds on its
// output directory's lock file, from this test process: a second run
// into the same directory, held until unlock FILE (or the script's end).
func lockFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: lock FILE")
	}
	path := ts.MkAbs(args[0])
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	ts.Check(err)
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		ts.Fatalf("lock %s: %v", args[0], err)
	}
	held.Store(path, f)
	ts.Defer(func() { unlock(path) })
}

// unlockFile FILE releases what lock FILE took.
func unlockFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: unlock FILE")
	}
	if !unlock(ts.MkAbs(args[0])) {
		ts.Fatalf("unlock %s: not locked", args[0])
	}
}

func unlock(path string) bool {
	f, ok := held.LoadAndDelete(path)
	if ok {
		f.(*os.File).Close()
	}
	return ok
}
