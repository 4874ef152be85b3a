package speedrun

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/timing/sidebyside"
)

// TestSpeedScriptSplicesMarkdown: what 'speed --markdown' prints, spliced
// into a document by scripts/speed.sh --readme, gives the bytes that
// sidebyside.UpdateFile (the binary's former --readme) gave; a document without
// the markers is refused and left as it was.
func TestSpeedScriptSplicesMarkdown(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	script, err := filepath.Abs("../../scripts/speed.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	block := "Measured by `scripts/speed.sh` on a test.\n\n| task | rows |\n|---|---:|\n| fit | 1,000 |\n"
	blockFile := filepath.Join(dir, "block.md")
	if err := os.WriteFile(blockFile, []byte(MarkedBlock(block)), 0o644); err != nil {
		t.Fatal(err)
	}
	splice := func(path string) error {
		cmd := exec.Command("bash", script, "--readme="+path)
		cmd.Env = append(os.Environ(), "SPEED_BLOCK="+blockFile)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("speed.sh: %s", out)
		}
		return err
	}
	for _, c := range []struct {
		name, doc string
		ok        bool
	}{
		{"block mid-file", "# Title\n\ntext before\n" + sidebyside.BeginMarker + "\nold line\n\nold table\n" + sidebyside.EndMarker + "\ntext after\n", true},
		{"empty block at end", "x\n" + sidebyside.BeginMarker + "\n" + sidebyside.EndMarker + "\n", true},
		{"no markers", "# Title\nno block here\n", false},
		{"begin marker only", "a\n" + sidebyside.BeginMarker + "\nb\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			viaGo, viaScript := filepath.Join(dir, "go.md"), filepath.Join(dir, "sh.md")
			for _, p := range []string{viaGo, viaScript} {
				if err := os.WriteFile(p, []byte(c.doc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			goErr := sidebyside.UpdateFile(viaGo, block)
			shErr := splice(viaScript)
			if (goErr == nil) != c.ok || (shErr == nil) != c.ok {
				t.Fatalf("UpdateFile: %v; speed.sh: %v; want success %v", goErr, shErr, c.ok)
			}
			want, _ := os.ReadFile(viaGo)
			got, _ := os.ReadFile(viaScript)
			if string(got) != string(want) {
				t.Errorf("speed.sh spliced\n%s\nUpdateFile gives\n%s", got, want)
			}
			if !c.ok && string(got) != c.doc {
				t.Errorf("a refused document was changed:\n%s", got)
			}
		})
	}
}

// TestRunExFuzzySkips: without an Ex-Fuzzy checkout, or with an
// interpreter that cannot import numpy, the FuzzyCART comparison is
// skipped with one message naming what is missing; a directory without
// Ex-Fuzzy's modules is one error.
func TestRunExFuzzySkips(t *testing.T) {
	mods := t.TempDir()
	if err := os.WriteFile(filepath.Join(mods, "tree_learning.py"), []byte("# stand-in\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, python, stderr, err string
	}{
		{"no checkout", "", "/usr/bin/python3", "no Ex-Fuzzy checkout (--exfuzzy DIR or FGRT_EXFUZZY): FuzzyCART against Ex-Fuzzy skipped\n", ""},
		{"no modules", t.TempDir(), "/usr/bin/python3", "", "--exfuzzy: "},
		{"no numpy", mods, filepath.Join(t.TempDir(), "no-python"), "cannot import numpy: FuzzyCART against Ex-Fuzzy skipped\n", ""},
		{"no interpreter", mods, "", "cannot import numpy: FuzzyCART against Ex-Fuzzy skipped\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			rs, err := runExFuzzy(context.Background(), &stderr, nil, tc.dir, tc.python)
			if len(rs) != 0 || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("results %v, err %v; want none and an error with %q", rs, err, tc.err)
			}
			if !strings.HasSuffix(stderr.String(), tc.stderr) || strings.Count(stderr.String(), "\n") != min(1, len(tc.stderr)) {
				t.Errorf("stderr %q, want one line ending %q", stderr.String(), tc.stderr)
			}
		})
	}
}

// TestExFuzzyFolds times FuzzyCART on the clean folds of ring and
// spambase, beside Ex-Fuzzy when a checkout is given (FGRT_EXFUZZY; then
// /usr/bin/python3 must import numpy, and each fold's tree must have the
// reference's leaf count; minutes). Without it, FuzzyCART is timed alone
// and no reference time is made up.
func TestExFuzzyFolds(t *testing.T) {
	if testing.Short() {
		t.Skip("fits ring and spambase")
	}
	mirror := sharedtest.Mirror()
	if mirror == "" {
		t.Skip("KEEL mirror not found")
	}
	f := datasets.NewFetcherFromEnv()
	f.Mirror, f.CacheDir = mirror, t.TempDir()
	data, err := exFuzzyFolds(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var o sidebyside.ExFuzzyOptions
	if dir := os.Getenv(sidebyside.ExFuzzyEnv); dir != "" {
		if o.Modules, err = sidebyside.ExFuzzyModules(dir); err != nil {
			t.Fatal(err)
		}
		o.Python = "/usr/bin/python3"
	}
	rs, err := sidebyside.RunExFuzzy(context.Background(), o, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(sidebyside.ExFuzzyDatasets) {
		t.Fatalf("%d results, want %d", len(rs), len(sidebyside.ExFuzzyDatasets))
	}
	for i, r := range rs {
		rows := 0
		for _, X := range data[i].X {
			rows = max(rows, len(X))
		}
		if len(data[i].X) != 5 || !strings.Contains(r.Task, sidebyside.ExFuzzyDatasets[i]) || !(r.Ours > 0) || r.Rows != rows {
			t.Errorf("result %+v (%d folds)", r, len(data[i].X))
		}
		if o.Modules == "" {
			if !math.IsNaN(r.Ref) || r.Note != "" {
				t.Errorf("%s: reference time %v, note %q without a reference", r.Task, r.Ref, r.Note)
			}
			continue
		}
		if !(r.Ref > 0) || !strings.HasPrefix(r.Note, "same leaf count on every fold") {
			t.Errorf("%s: Ex-Fuzzy %v s, note %q", r.Task, r.Ref, r.Note)
		}
		t.Logf("%s: ours %.4gs, Ex-Fuzzy %.4gs, ratio %.1f", r.Task, r.Ours, r.Ref, r.Ratio())
	}
}
