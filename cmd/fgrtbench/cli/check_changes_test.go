package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckNamesEveryChange is item 7 of issue 40: when both the data and a
// learner's version changed, check named only the learner and exited 4
// (the learner was compared before the data loaded, and the refusal
// stopped there). Now it names every difference it found, each changed
// dataset included, and exits with the lowest kind's status (data, 3),
// whether it runs the study or reads results; nothing runs, nothing is
// written.
func TestCheckNamesEveryChange(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a.csv"), filepath.Join(tmp, "b.csv")
	writeData(t, a, 0)
	writeData(t, b, 0.25)
	spec := filepath.Join(tmp, "s.yaml")
	text := fmt.Sprintf("protocols: [clean]\ndatasets: [%s, %s]\nfolds: 3\ninner_folds: 2\nmethods:\n  - name: cart\n", a, b)
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	baseline := filepath.Join(tmp, "base.json")
	if code, _, e := runCLI("check", "--baseline", baseline, "--spec", spec, "--update"); code != 0 {
		t.Fatalf("baseline: %s", e)
	}
	good, _ := os.ReadFile(baseline)
	from, to := []byte("\"method\": \"cart\",\n    \"version\": 1"), []byte("\"method\": \"cart\",\n    \"version\": 7")
	if !bytes.Contains(good, from) {
		t.Fatalf("the baseline does not hold %q", from)
	}
	learner := "learner changed: cart (cart) version 7 in the baseline, 1 now"

	// The learner alone: exit 4, as before.
	os.WriteFile(baseline, bytes.Replace(good, from, to, 1), 0o644)
	refusedWith(t, tmp, 4, []string{learner}, "check", "--baseline", baseline)

	// Both datasets and the learner: every one named, exit 3.
	writeData(t, a, 0.5)
	writeData(t, b, 0.75)
	all := []string{"data changed: dataset " + a + ": content:", "; dataset " + b + ": content:", "; " + learner}
	refusedWith(t, tmp, 3, all, "check", "--baseline", baseline)

	// The same from results made with the edited data.
	results := filepath.Join(tmp, "X")
	if code, _, e := runCLI("run", "--spec", spec, "--out", results, "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	refusedWith(t, tmp, 3, all, "check", "--baseline", baseline, "--results", results)

	// The data alone: both datasets named.
	os.WriteFile(baseline, good, 0o644)
	refusedWith(t, tmp, 3, all[:2], "check", "--baseline", baseline)
}
