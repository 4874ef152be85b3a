//go:build unix

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// untimed is results.csv with the timing columns blanked: everything else
// of two runs of one study is byte-identical.
func untimed(t *testing.T, path string) string {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		recs[i].FitSeconds, recs[i].PredictSeconds = 0, 0
	}
	var b bytes.Buffer
	if err := results.Write(&b, recs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTornArtifactsHeal is item 6 of issue 30: a finished study whose
// predictions.csv.gz or models.jsonl.gz lost its tail (an interrupted
// copy) or went missing is refused by report and check --predictions,
// which change nothing; resuming it re-runs exactly the units whose
// artifacts are gone, after which results.csv equals a clean run's (timing
// aside), the artifacts are byte-identical to a clean run's, and report
// and check --predictions pass.
func TestTornArtifactsHeal(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	clean := filepath.Join(tmp, "clean")
	if code, _, e := runCLI("run", "--spec", spec, "--out", clean, "-j", "1", "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	for _, c := range []struct {
		name    string
		damage  func(dir string) error
		reruns  string // the summary's "(N run, M resumed"
		healed  string
		refusal string
	}{
		{"predictions tail", func(dir string) error { return cut(filepath.Join(dir, artifacts.PredictionsFile), 20) }, "(1 run, 2 resumed", "1 unit had missing or torn artifacts", "not a whole gzip member"},
		{"models tail", func(dir string) error { return cut(filepath.Join(dir, artifacts.ModelsFile), 20) }, "(1 run, 2 resumed", "1 unit had missing or torn artifacts", "not a whole gzip member"},
		{"predictions past its header", func(dir string) error {
			st, err := os.Stat(filepath.Join(dir, artifacts.PredictionsFile))
			if err != nil {
				return err
			}
			return cut(filepath.Join(dir, artifacts.PredictionsFile), int(st.Size())-10)
		}, "(3 run, 0 resumed", "3 units had missing or torn artifacts", ""},
		{"models removed", func(dir string) error { return os.Remove(filepath.Join(dir, artifacts.ModelsFile)) }, "(3 run, 0 resumed", "3 units had missing or torn artifacts", artifacts.ModelsFile},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "X")
			copyTree(t, clean, dir)
			os.Remove(filepath.Join(dir, ".fgrtbench.lock"))
			if err := c.damage(dir); err != nil {
				t.Fatal(err)
			}
			// Before healing, readers refuse the directory and leave it as
			// it is.
			root := filepath.Dir(dir)
			for _, args := range [][]string{{"report", "--results", dir}, {"check", "--predictions", "--results", dir, "--against", clean}} {
				before := treeHash(t, root, "")
				code, _, e := runCLI(args...)
				if code != 1 || strings.Count(strings.TrimSpace(e), "\n") != 0 || !strings.Contains(e, c.refusal) {
					t.Errorf("%v before healing: exit %d, want 1 with one line saying %q; stderr %q", args, code, c.refusal, e)
				}
				if treeHash(t, root, "") != before {
					t.Errorf("%v changed the directory it refused", args)
				}
			}
			code, _, e := runCLI("run", "--spec", spec, "--out", dir, "-j", "1", "--no-report")
			if code != 0 || !strings.Contains(e, c.reruns) || !strings.Contains(e, c.healed) {
				t.Fatalf("resume: exit %d, want %q and %q; stderr %q", code, c.reruns, c.healed, e)
			}
			if got, want := untimed(t, filepath.Join(dir, results.FileName)), untimed(t, filepath.Join(clean, results.FileName)); got != want {
				t.Errorf("results.csv after healing differs from a clean run's:\n%s\nwant\n%s", got, want)
			}
			for _, n := range []string{artifacts.PredictionsFile, artifacts.ModelsFile} {
				got, _ := os.ReadFile(filepath.Join(dir, n))
				want, _ := os.ReadFile(filepath.Join(clean, n))
				if !bytes.Equal(got, want) {
					t.Errorf("%s after healing differs from a clean run's (%d bytes, want %d)", n, len(got), len(want))
				}
			}
			if code, _, e := runCLI("report", "--results", dir); code != 0 {
				t.Errorf("report after healing: exit %d: %s", code, e)
			}
			if code, out, e := runCLI("check", "--predictions", "--results", dir, "--against", clean); code != 0 {
				t.Errorf("check --predictions after healing: exit %d: %s%s", code, out, e)
			}
		})
	}
}

// cut removes the last n bytes of path.
func cut(path string, n int) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	return os.Truncate(path, st.Size()-int64(n))
}
