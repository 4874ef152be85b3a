package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

// datasetsRow returns the row of the report's Datasets table that begins
// with name.
func datasetsRow(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "report", "datasets.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "| "+name+" |") {
			return line
		}
	}
	t.Fatalf("no row %s in the Datasets table:\n%s", name, data)
	return ""
}

// TestReproduceSaysWhichRowsItUsed: a CSV of 300 rows, 30 of them
// incomplete, runs on 270 rows: the run warns once, and the Datasets
// table shows the 300 rows of the file beside the 270 used, with the
// majority rate of those 270; --missing impute uses all 300.
func TestReproduceSaysWhichRowsItUsed(t *testing.T) {
	var b strings.Builder
	b.WriteString("x0,x1,class\n")
	for i := 0; i < 300; i++ {
		x1 := fmt.Sprint(i % 13)
		if i%10 == 5 {
			x1 = ""
		}
		// Classes a:b are 180:120 (majority 60 %); the incomplete rows
		// are all of class a, so the rows used are 150:120 (55.56 %).
		c := "a"
		if i%10 < 4 {
			c = "b"
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", i%17, x1, c)
	}
	path := filepath.Join(t.TempDir(), "mine.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, want, warning string
		args                []string
	}{
		{"drop", "| mine | 300 | 270 | 2 | 0 | 2 | 150:120 | 55.56 | 30 |", "fgrtbench: warning: " + path + ": 30 of 300 rows dropped (missing values in 1 column)\n", nil},
		{"impute", "| mine | 300 | 300 | 2 | 0 | 2 | 180:120 | 60.00 | 30 |", "", []string{"--protocol", "clean", "--missing", "impute"}},
	}
	for _, c := range cases {
		dir := t.TempDir()
		args := append([]string{"reproduce", "--datasets", path, "--methods", "majority", "--no-variants", "--out", dir, "-j", "2"}, c.args...)
		code, out, errOut := runCLI(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s %s", c.name, code, out, errOut)
		}
		if got := datasetsRow(t, dir, "mine"); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: Datasets row\n%s\nwant it to begin\n%s", c.name, got, c.want)
		}
		if n := strings.Count(errOut, "warning:"); c.warning == "" && n != 0 || c.warning != "" && (n != 1 || !strings.Contains(errOut, c.warning)) {
			t.Errorf("%s: stderr has %d warnings, want %q:\n%s", c.name, n, c.warning, errOut)
		}
	}
}

// TestMissingFlagRefusals: an unknown policy, and impute with the paper
// protocol, are one line each, and nothing is written.
func TestMissingFlagRefusals(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--missing", "mean"}, `--missing: unknown missing-value policy "mean" (valid: drop, impute, error)`},
		{[]string{"--missing", "impute"}, "impute applies to the clean and holdout protocols only"},
		{[]string{"--missing", "impute", "--protocol", "paper"}, "impute applies to the clean and holdout protocols only"},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "out")
		code, _, errOut := runCLI(append([]string{"reproduce", "--datasets", "wine", "--methods", "majority", "--out", dir}, c.args...)...)
		if code == 0 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want one line containing %q", c.args, code, errOut, c.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%v: the refusal wrote %s", c.args, dir)
		}
	}
}

// TestHepatitisDatasetsRow: in the paper's study hepatitis has 155 rows in
// its file and 80 used (the complete ones), and the majority rate is that
// of the 80 (67 of class 2: 83.75 %, what the majority method scores), not
// of the 155 (79.35 %).
func TestHepatitisDatasetsRow(t *testing.T) {
	sharedtest.Require(t, "datasets/raw/hepatitis.dat")
	dir := t.TempDir()
	code, out, errOut := runCLI("reproduce", "--datasets", "hepatitis", "--methods", "majority", "--no-variants",
		"--mirror", sharedtest.Mirror(), "--cache", t.TempDir(), "--out", dir, "-j", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	want := "| hepatitis | 155 | 80 | 19 | 0 | 2 | 13:67 | 83.75 | 75 | 4e999ed8dd40… | no |"
	if got := datasetsRow(t, dir, "hepatitis"); got != want {
		t.Errorf("hepatitis row\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(errOut, "fgrtbench: warning: hepatitis: 75 of 155 rows dropped (missing values in 15 columns)\n") || strings.Count(errOut, "warning:") != 1 {
		t.Errorf("stderr: want one warning for hepatitis:\n%s", errOut)
	}
}
