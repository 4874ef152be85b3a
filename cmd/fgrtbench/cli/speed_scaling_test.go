package cli

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/timing/sidebyside"
)

// asFgrtbench is the variable under which this package's test binary runs
// as fgrtbench itself (Main on its arguments), so that a command that
// starts fgrtbench children (speed --scaling) can be tested without
// building the binary.
const asFgrtbench = "FGRT_TEST_BINARY_IS_FGRTBENCH"

func TestMain(m *testing.M) {
	if os.Getenv(asFgrtbench) == "1" {
		env := &command.Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
		os.Exit(Main(context.Background(), env, os.Args[1:]))
	}
	scalingEnv = append(os.Environ(), asFgrtbench+"=1")
	os.Exit(m.Run())
}

// TestSpeedScalingTinyStudy runs `speed --scaling` on a tiny large-data
// study (600 rows) at -j 1 and 2, each a child reproduce: the table has a
// row per -j with its speed-ups derived from the measured walls, and the
// CSV says the same. (TestEveryWriterKeepsForeignFiles holds its --out
// to the rules of every writer.)
func TestSpeedScalingTinyStudy(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI("speed", "--scaling", "--scaling-studies", "large", "--scaling-j", "1,2", "--scaling-rows", "600", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "large      1 ") || !strings.HasPrefix(lines[2], "large      2 ") {
		t.Fatalf("table:\n%s", stdout)
	}
	if !strings.Contains(lines[1], " 1.00× ") || !strings.Contains(lines[1], " 100 % ") {
		t.Errorf("-j 1 row is not its own base: %q", lines[1])
	}
	f, err := os.Open(filepath.Join(dir, sidebyside.ScalingFile))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != 3 || strings.Join(recs[0], ",") != strings.Join(sidebyside.ScalingCSVHeader, ",") {
		t.Fatalf("CSV %v (%v)", recs, err)
	}
	w1, _ := strconv.ParseFloat(recs[1][2], 64)
	w2, _ := strconv.ParseFloat(recs[2][2], 64)
	s2, _ := strconv.ParseFloat(recs[2][3], 64)
	if w1 <= 0 || w2 <= 0 || s2 < w1/w2-0.01 || s2 > w1/w2+0.01 {
		t.Errorf("walls %v, %v and speed-up %v do not agree", w1, w2, s2)
	}
	if rss, _ := strconv.ParseUint(recs[1][6], 10, 64); rss < 1<<20 && recs[1][6] != "" {
		t.Errorf("peak RSS %s bytes is not a process's", recs[1][6])
	}

}

// TestSpeedScalingVersus compares a build with itself (this test binary
// as both) on a tiny large study over two rounds: four children, the builds
// alternating and swapping order, each build's medians and their ratio in
// the table, every run in versus.csv with its fit seconds of both methods.
func TestSpeedScalingVersus(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("speed", "--scaling", "--scaling-studies", "large", "--scaling-j", "1", "--scaling-rows", "300",
		"--versus", self, "--rounds", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"large     1 this         2 ", "large     1 versus       2 ", "large     1 ratio ", "\ncart ", "\nfgrt "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	if got := strings.Count(stderr, "this build, round") + strings.Count(stderr, "versus build, round"); got != 4 {
		t.Errorf("%d runs in the log, want 4:\n%s", got, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, sidebyside.VersusFile))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil || len(recs) != 5 {
		t.Fatalf("CSV %q (%v)", data, err)
	}
	var order []string
	for _, r := range recs[1:] {
		order = append(order, r[2]+"/"+r[3])
		if !strings.HasPrefix(r[9], "cart=") || !strings.Contains(r[9], ";fgrt=") {
			t.Errorf("fit seconds %q", r[9])
		}
		if cpu, err := strconv.ParseFloat(r[5], 64); err != nil || cpu <= 0 {
			t.Errorf("CPU seconds %q", r[5])
		}
	}
	if strings.Join(order, " ") != "this/0 versus/0 versus/1 this/1" {
		t.Errorf("run order %v: the builds do not alternate with the order swapped", order)
	}
}

// TestSpeedScalingDataDir: --scaling-data keeps the generated CSV, and a
// second measurement reuses it (listed in the directory's marker); a file
// of that name fgrtbench did not write, or a link, is refused in one line
// and left as it was, instead of being timed as the generator's data.
func TestSpeedScalingDataDir(t *testing.T) {
	data := t.TempDir()
	args := []string{"speed", "--scaling", "--scaling-studies", "large", "--scaling-j", "1", "--scaling-rows", "300", "--scaling-data", data}
	for run := 0; run < 2; run++ {
		code, _, stderr := runCLI(append(args, "--out", t.TempDir())...)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", run, code, stderr)
		}
		if wrote := strings.Contains(stderr, "writing 300 × 20 CSV"); wrote != (run == 0) {
			t.Errorf("run %d: wrote the CSV: %v", run, wrote)
		}
	}
	csv := filepath.Join(data, "large-300x20.csv")
	if st, err := os.Stat(csv); err != nil || st.Size() == 0 {
		t.Fatalf("the CSV was not kept: %v", err)
	}

	theirs := t.TempDir()
	mine := []byte("x1,class\n1,a\n")
	os.WriteFile(filepath.Join(theirs, "large-300x20.csv"), mine, 0o644)
	linked := t.TempDir()
	os.Symlink(csv, filepath.Join(linked, "large-300x20.csv"))
	for _, dir := range []string{theirs, linked} {
		args[len(args)-1] = dir
		code, _, stderr := runCLI(append(args, "--out", t.TempDir())...)
		if code == 0 || strings.Count(strings.TrimSpace(stderr), "\n") > 0 || !strings.Contains(stderr, "large-300x20.csv") {
			t.Errorf("%s: exit %d, stderr %q; want one line refusing the CSV", dir, code, stderr)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(theirs, "large-300x20.csv")); string(got) != string(mine) {
		t.Errorf("the user's file changed: %q", got)
	}
}

// TestSpeedScalingRefusals: flags that would do nothing without --scaling,
// an unknown study and a -j below 1 are one error each, before anything
// runs.
func TestSpeedScalingRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"speed", "--scaling-j", "1,2"}, "--scaling-j applies to --scaling only"},
		{[]string{"speed", "--out", "x"}, "--out applies to --scaling only"},
		{[]string{"speed", "--scaling", "--scaling-studies", "nope"}, `unknown study "nope"`},
		{[]string{"speed", "--scaling", "--scaling-j", "0"}, "not a positive integer"},
		{[]string{"speed", "--scaling", "--scaling-rows", "5"}, "at least 100"},
		{[]string{"speed", "--versus", "/bin/true"}, "--versus applies to --scaling only"},
		{[]string{"speed", "--rounds", "3"}, "--rounds applies to --scaling only"},
		{[]string{"speed", "--scaling", "--rounds", "0"}, "from 1 to 100"},
		{[]string{"speed", "--scaling", "--versus", "/nonexistent/fgrtbench"}, "is not an executable file"},
	} {
		code, _, stderr := runCLI(c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", c.args, code, stderr, c.want)
		}
	}
}
