package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeToyData writes a two-class CSV of the user's own kind (no mirror
// needed): two informative numeric features and one noise feature.
func writeToyData(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("a,b,noise,class\n")
	for i := 0; i < 120; i++ {
		a := float64(i%40) / 4
		bv := float64((i*7)%30) / 3
		cls := "neg"
		if a+bv > 9 {
			cls = "pos"
		}
		fmt.Fprintf(&b, "%g,%g,%d,%s\n", a, bv, (i*13)%17, cls)
	}
	path := filepath.Join(dir, "toy.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunWritesReportWithSweep(t *testing.T) {
	dir := t.TempDir()
	data := writeToyData(t, dir)
	spec := filepath.Join(dir, "sweep.yaml")
	if err := os.WriteFile(spec, []byte(`name: toy-sweep
protocols: [clean]
datasets: [`+data+`]
folds: 3
repeats: 2
methods:
  - name: fgrt
    sweep: {max_rules: ["2", "4", "8", "16", "32"]}
    selection: sweep
  - name: fgrt
    label: fgrt-2d
    sweep: {max_rules: ["4", "16"], coverage_threshold: ["0", "0.05", "0.1"]}
    selection: sweep
  - name: fgrt
    label: fgrt-fixed
    params: {fix_q1: "true", fix_q2: "true"}
  - name: cart
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLI("run", "--spec", spec, "--out", out, "-j", "2")
	if code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "units (100%)") {
		t.Errorf("no progress line on a non-terminal stderr:\n%s", stderr)
	}
	report := filepath.Join(out, "report", "REPORT.md")
	if !strings.Contains(stdout, "report: "+report) {
		t.Errorf("stdout %q does not name the report", stdout)
	}
	md, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## Hyperparameter sweeps", "(sweeps/sweep-clean-fgrt.md)", "(sweeps/sweep-clean-fgrt-2d.md)",
		"(figures/sweep_clean_fgrt.png)", "against max\\_rules", "(figures/sweep_clean_fgrt-2d.png)", "heatmap per dataset",
		"(figures/front_clean.png)", "Accuracy–interpretability front",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	// The full sweep tables are linked files.
	full, err := os.ReadFile(filepath.Join(out, "report", "sweeps", "sweep-clean-fgrt.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Sweep of FGRT over max\\_rules, clean protocol", "selected: FGRT (Q1+Q2 fixed) (inner-cv)", "| Pooled | 32 |"} {
		if !strings.Contains(string(full), want) {
			t.Errorf("sweep table lacks %q", want)
		}
	}
	for _, f := range []string{"sweeps/sweep-clean-fgrt.md", "sweeps/sweep-clean-fgrt.tex", "sweeps/sweep-clean-fgrt.csv", "analysis.json",
		"figures/sweep_clean_fgrt.svg", "figures/sweep_clean_fgrt-2d.svg", "figures/front_clean.svg"} {
		if _, err := os.Stat(filepath.Join(out, "report", f)); err != nil {
			t.Error(err)
		}
	}
	// Re-rendering from the same results gives the same REPORT.md, byte for byte.
	if code, _, stderr := runCLI("report", "--results", out); code != 0 {
		t.Fatalf("report exited %d: %s", code, stderr)
	}
	again, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(md) {
		t.Error("REPORT.md differs after re-rendering the same results")
	}
	code, stdout, stderr = runCLI("plot", "all", "--results", out)
	if code != 0 || !strings.Contains(stdout, "sweep_clean_fgrt-2d.png") || !strings.Contains(stdout, "front_clean.png") {
		t.Errorf("plot all: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
