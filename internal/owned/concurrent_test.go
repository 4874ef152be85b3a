//go:build unix

package owned

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// concurrentWriterEnv makes the re-executed test binary one of the
// concurrent writers of TestConcurrentWritersKeepEachOthersNames.
const concurrentWriterEnv = "FGRT_OWNED_WRITER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(concurrentWriterEnv); spec != "" {
		if err := concurrentWriter(spec); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// concurrentWriter is one process of the test, given "DIR ID FILES": it
// writes its own FILES files one by one, a file every writer writes, and
// then keeps what it wrote, as a report render does.
func concurrentWriter(spec string) error {
	f := strings.Fields(spec)
	dir, id := f[0], f[1]
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return err
	}
	d, err := Open(dir)
	if err != nil {
		return err
	}
	var mine []string
	for i := range n {
		name := fmt.Sprintf("w%s-%02d.csv", id, i)
		if err := d.WriteFile(name, []byte(name)); err != nil {
			return err
		}
		mine = append(mine, name)
	}
	if err := d.WriteFile("shared.csv", []byte("every writer's\n")); err != nil {
		return err
	}
	return d.Keep(append(mine, "shared.csv"))
}

// TestConcurrentWritersKeepEachOthersNames runs writers as separate
// processes into one directory at once: the marker must list every file
// each of them wrote, and none may refuse a file another one wrote as not
// fgrtbench's (the marker is re-read under the directory's lock).
func TestConcurrentWritersKeepEachOthersNames(t *testing.T) {
	const writers, files = 6, 25
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, writers)
	out := make([][]byte, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d", concurrentWriterEnv, dir, w, files))
			out[w], errs[w] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v: %s", w, err, out[w])
		}
	}
	marker, err := os.ReadFile(filepath.Join(dir, Marker))
	must(t, err)
	listed := map[string]bool{}
	for _, n := range strings.Fields(string(marker)) {
		listed[n] = true
	}
	entries, err := os.ReadDir(dir)
	must(t, err)
	missing := 0
	for _, e := range entries {
		if e.Name() != Marker && !listed[e.Name()] {
			missing++
		}
	}
	if want := writers*files + 1; len(entries)-1 != want || missing != 0 {
		t.Errorf("%d files in the directory (want %d), %d of them not listed in the marker", len(entries)-1, want, missing)
	}
}
