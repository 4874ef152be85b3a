package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/results"
)

func TestRuntimeThenPlotAll(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("runtime", "--out", dir, "--methods", "cart,c45-entropy", "--samples", "20,40,80",
		"--features", "2,3,4", "--features-samples", "30", "--trials", "1")
	if code != 0 {
		t.Fatalf("runtime exited %d: %s", code, errOut)
	}
	for _, f := range []string{"runtime.csv", "runtime_scaling.png", "runtime_scaling.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v (stdout %q)", f, err, out)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "runtime.csv"))
	if n := strings.Count(string(csv), "\n"); n != 1+2*3+2*3 {
		t.Errorf("runtime.csv has %d lines:\n%s", n, csv)
	}
	code, out, errOut = runCLI("plot", "all", "--results", dir)
	if code != 0 || !strings.Contains(out, filepath.Join(dir, "report", "figures", "runtime_scaling.png")) {
		t.Errorf("plot all: %d %q %q", code, out, errOut)
	}
}

func TestPlotUsageErrors(t *testing.T) {
	cases := [][]string{
		{"plot"},
		{"plot", "frobnicate"},
		{"plot", "all"},
		{"plot", "partitions", "--dataset", "wine"},
		{"runtime", "--samples", "ten"},
	}
	for _, args := range cases {
		if code, _, _ := runCLI(args...); code == 0 {
			t.Errorf("%v exited 0", args)
		}
	}
}

func TestPlotPartitionsWine(t *testing.T) {
	sharedtest.Require(t, "datasets/raw/wine.dat")
	dir := t.TempDir()
	code, out, errOut := runCLI("plot", "partitions", "--dataset", "wine", "--feature", "proline",
		"--mirror", sharedtest.Mirror(), "--cache", t.TempDir(), "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "partitions_wine_Proline.png")); err != nil {
		t.Error(err)
	}
}

func TestPlotAllWithNothingToDrawFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "results.csv"), []byte(strings.Join(results.Header, ",")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("plot", "all", "--results", dir)
	if code != 1 || !strings.Contains(errOut, "nothing to draw") || out != "" {
		t.Errorf("plot all on an empty results file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestRuntimeOfADataFile: runtime --datasets takes the path of a data file,
// as every other --datasets does (it used to accept registry names only).
func TestRuntimeOfADataFile(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "mine.csv", twoClassCSV(30))
	code, _, errOut := runCLI("runtime", "--out", dir, "--methods", "cart", "--samples", "20", "--features=", "--trials", "1", "--datasets", data)
	if code != 0 {
		t.Fatalf("runtime exited %d: %s", code, errOut)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "runtime.csv"))
	for _, want := range []string{"real/" + data + ",cart,20,2,0,", "real/" + data + ",cart,60,2,0,"} {
		if !strings.Contains(string(csv), want) {
			t.Errorf("runtime.csv lacks %q:\n%s", want, csv)
		}
	}
}

// TestPlotPartitionsOfADataFile: --dataset takes a data file's path, and
// the figure is named after the file's stem.
func TestPlotPartitionsOfADataFile(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "mine.csv", twoClassCSV(30))
	out := filepath.Join(dir, "figs")
	code, stdout, errOut := runCLI("plot", "partitions", "--dataset", data, "--feature", "x2", "--protocol", "raw", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	for _, ext := range []string{".png", ".svg"} {
		if _, err := os.Stat(filepath.Join(out, "partitions_mine_x2"+ext)); err != nil {
			t.Error(err)
		}
	}
}
