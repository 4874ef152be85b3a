//go:build unix

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editManifest applies edit to the decoded manifest.json of dir.
func editManifest(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	p := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstGroup is the first group of a decoded manifest's identity.
func firstGroup(m map[string]any) map[string]any {
	return m["identity"].(map[string]any)["groups"].([]any)[0].(map[string]any)
}

// TestStoredNumbersAreChecked is item 7 of issue 30: a number of
// results.csv outside its range (a rate outside [0, 1], a negative time or
// count) is refused with its file, line and column by report, merge and a
// resumed run; a balanced_accuracy or leaves cell edited within range is
// refused by report and merge, which re-derive both from the artifacts;
// and report refuses every manifest merge and resume refuse (an edited
// method version or dataset checksum), through the one check all three
// share. Each refusal is one line, exit 1, and changes no file.
func TestStoredNumbersAreChecked(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	clean := filepath.Join(tmp, "clean")
	if code, _, e := runCLI("run", "--spec", spec, "--out", clean, "-j", "1", "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	res := func(dir string) string { return filepath.Join(dir, "results.csv") }
	type readers int
	const (
		all           readers = iota // report, merge and a resumed run
		fromArtifacts                // report and merge (resume does not re-derive)
	)
	cases := []struct {
		name string
		edit func(dir string)
		who  readers
		want string // a part of the message; "RES:" stands for the results.csv path
	}{
		{"balanced accuracy above 1", func(d string) { editCell(t, res(d), 1, "balanced_accuracy", "1.7") }, all,
			"RES:2:15: balanced_accuracy 1.7 is not a rate in [0, 1]"},
		{"balanced accuracy negative", func(d string) { editCell(t, res(d), 2, "balanced_accuracy", "-3") }, all,
			"RES:3:15: balanced_accuracy -3 is not a rate in [0, 1]"},
		{"fit time negative", func(d string) { editCell(t, res(d), 1, "fit_seconds", "-0.010000") }, all,
			"RES:2:21: fit_seconds -0.01 is not a time >= 0"},
		{"leaves negative", func(d string) { editCell(t, res(d), 3, "leaves", "-1") }, all,
			"RES:4:19: leaves -1 is negative"},
		{"rules not an integer", func(d string) { editCell(t, res(d), 1, "rules", "2.5") }, all,
			`RES:2:16: rules "2.5" is not an integer`},
		{"balanced accuracy edited within range", func(d string) { editCell(t, res(d), 1, "balanced_accuracy", "0.123") }, fromArtifacts,
			"results.csv says balanced_accuracy 0.123, the predictions"},
		{"leaves edited within range", func(d string) { editCell(t, res(d), 1, "leaves", "99") }, fromArtifacts,
			"results.csv says 99 leaves, the model's"},
		{"method version edited", func(d string) {
			editManifest(t, d, func(m map[string]any) { firstGroup(m)["method_version"] = 2 })
		}, all, "records hash"},
		{"identity's dataset checksum edited", func(d string) {
			editManifest(t, d, func(m map[string]any) { firstGroup(m)["dataset_sha256"] = strings.Repeat("0", 64) })
		}, all, "records hash"},
		{"dataset record's checksum edited", func(d string) {
			editManifest(t, d, func(m map[string]any) {
				m["datasets"].([]any)[0].(map[string]any)["normalized_sha256"] = strings.Repeat("0", 64)
			})
		}, all, "but the study's identity has"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "X")
			copyTree(t, clean, dir)
			os.Remove(filepath.Join(dir, ".fgrtbench.lock"))
			c.edit(dir)
			want := strings.ReplaceAll(c.want, "RES:", res(dir)+":")
			// report and merge write nothing when they refuse: the whole
			// tree stays as it was (root also holds merge's --out).
			refused(t, root, "", []string{want}, "report", "--results", dir)
			refused(t, root, "", []string{want}, "merge", "--out", filepath.Join(root, "M"), dir)
			if c.who == all {
				refused(t, root, "", []string{want}, "run", "--spec", spec, "--out", dir, "-j", "1", "--no-report")
			}
		})
	}
}
