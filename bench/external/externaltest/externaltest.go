// Package externaltest builds the Go adapter that tests of the external
// kind run: a nearest-centroid classifier that needs nothing but Go, so the
// file contract and both modes (a process per job, or a worker serving
// jobs on stdin when FGRTBENCH_WORKER is set) are exercised wherever the
// tests run (CI included). Its mode parameter injects the failures an
// adapter can have: exit (status 3 with a traceback on stderr), sleep (a
// minute), short (one prediction missing), unknown (an unknown class
// label), badjson (a malformed complexity record), fail-if-flag (exit 1,
// or an error answer, for every third seed while the file named by
// parameter flag exists), hugepred (a megabyte of predictions), fifo
// (predictions.txt a named pipe), junk (fail unless the job's directory
// holds its five inputs only, then leave a file in it); worker mode adds
// garbage (a line that is not an answer), wrongid, exit0 (exit without
// answering), hugeline (a megabyte without a newline on stdout), twice
// (the answer written twice) and late-twice (the second time 300 ms
// later, when the harness has sent its next job). pid appends "# pid P job N" to the rules:
// which process ran the job, and its how-manieth. The flags -noread (a
// worker that never reads its input) and -die (one that exits at start
// with an import error) go before the placeholders.
package externaltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/foreign"
)

var (
	once  sync.Once
	built string
	err   error
	log   []byte
)

// GoAdapter builds the adapter once per test binary and returns the path
// of a private copy in the test's temporary directory, so a test may
// modify it. The adapter is invoked as "ADAPTER {dir} {seed} {mode}".
func GoAdapter(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		_, self, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(self), "testdata", "goadapter")
		var dir string
		if dir, err = os.MkdirTemp("", "fgrtbench-goadapter-"); err != nil {
			return
		}
		//lint:ignore SA1019 a test binary runs where it was built, so its GOROOT names the toolchain under test; PATH is the fallback below
		goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, statErr := os.Stat(goBin); statErr != nil {
			goBin = "go"
		}
		built = filepath.Join(dir, "goadapter")
		cmd := exec.Command(goBin, "build", "-o", built, ".")
		cmd.Dir = src
		log, err = foreign.CombinedOutput(cmd)
	})
	if err != nil {
		t.Fatalf("building the Go adapter: %v\n%s", err, log)
	}
	data, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(t.TempDir(), "goadapter")
	if err := os.WriteFile(own, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return own
}

// ProcessAlive reports whether process pid runs (a zombie does not), from
// /proc; the tests that check a worker's process group is gone use it.
func ProcessAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
