package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/results"
)

// writeIncomplete writes a 300-row CSV of two numeric inputs, one nominal
// input and two classes in which the rows i%step == step/2, the first
// `incomplete` of them, miss x1 (and every third of those also colour),
// and returns its path and the 1-based line of its first missing cell.
func writeIncomplete(t *testing.T, incomplete, step int) (string, int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("x0,x1,colour,class\n")
	first, left := 0, incomplete
	for i := 0; i < 300; i++ {
		c := []string{"no", "yes"}[i%2]
		x1 := fmt.Sprint(i % 37)
		colour := []string{"red", "green", "blue"}[i%3]
		if left > 0 && i%step == step/2 {
			x1 = ""
			if left%3 == 0 {
				colour = "?"
			}
			left--
			if first == 0 {
				first = i + 2
			}
		}
		fmt.Fprintf(&b, "%d.5,%s,%s,%s\n", i%2*10+i%7, x1, colour, c)
	}
	path := filepath.Join(t.TempDir(), "mine.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, first
}

func fileLoader(path string) Loader {
	return func(ctx context.Context, name string) (*datasets.Dataset, error) {
		d, err := datasets.LoadFile(path, datasets.LoadOptions{})
		if err != nil {
			return nil, err
		}
		d.Name = name
		return d, nil
	}
}

func missingStudy(policy string, protocols ...string) study.Study {
	o := protocol.DefaultOptions()
	o.Missing = policy
	return study.Study{Protocols: protocols, Datasets: []string{"mine"}, Options: o, Methods: []study.MethodSpec{{Name: "majority"}}}
}

// rowsPerFold sums n_train + n_test of each protocol's first fold.
func rowsPerFold(t *testing.T, dir string) map[string]int {
	t.Helper()
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range recs {
		if r.Fold == 0 && r.Repeat == 0 {
			out[r.Protocol] = r.NTrain + r.NTest
		}
	}
	return out
}

// TestDroppedRowsAreWarnedAndRecorded: rows with a missing input are
// dropped under both protocols, with one warning per dataset, and the
// manifest records the file's rows, the rows used and dropped by each
// protocol, and the missing cells per column.
func TestDroppedRowsAreWarnedAndRecorded(t *testing.T) {
	for _, c := range []struct{ incomplete, step int }{{30, 10}, {200, 1}} {
		path, _ := writeIncomplete(t, c.incomplete, c.step)
		dir := t.TempDir()
		var warnings []string
		r := &Runner{Load: fileLoader(path), OutDir: dir, Jobs: 2, Warn: func(w string) { warnings = append(warnings, w) }}
		if _, err := r.Run(context.Background(), missingStudy("", "paper", "clean")); err != nil {
			t.Fatal(err)
		}
		used := 300 - c.incomplete
		want := []string{fmt.Sprintf("mine: %d of 300 rows dropped (missing values in 2 columns)", c.incomplete)}
		if !reflect.DeepEqual(warnings, want) {
			t.Errorf("%d incomplete rows: warnings %q, want %q", c.incomplete, warnings, want)
		}
		m, err := manifest.Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		d := m.Datasets[0]
		colour := c.incomplete / 3
		if d.Rows != 300 || d.MissingRows != c.incomplete || d.Features != 3 || d.NominalFeatures != 1 ||
			!reflect.DeepEqual(d.Missing, []manifest.ColumnMissing{{Column: "x1", Cells: c.incomplete}, {Column: "colour", Cells: colour}}) {
			t.Errorf("%d incomplete rows: manifest dataset %+v", c.incomplete, d)
		}
		if len(d.Use) != 2 {
			t.Fatalf("uses %+v, want one per protocol", d.Use)
		}
		for i, u := range d.Use {
			counts := 0
			for _, n := range u.ClassCounts {
				counts += n
			}
			if u.Protocol != []string{"paper", "clean"}[i] || u.Policy != "drop" || u.RowsUsed != used || u.RowsDropped != c.incomplete || counts != used || u.CellsImputed != 0 {
				t.Errorf("%d incomplete rows: use %+v, want %d rows used", c.incomplete, u, used)
			}
		}
		if got := rowsPerFold(t, dir); got["paper"] != used || got["clean"] != used {
			t.Errorf("%d incomplete rows: folds hold %v rows, want %d", c.incomplete, got, used)
		}
	}
}

// TestImputeKeepsEveryRow: under impute the clean and holdout protocols
// use all 300 rows, nothing is dropped or warned, the manifest counts the
// imputed cells, and the units are another experiment than drop's.
func TestImputeKeepsEveryRow(t *testing.T) {
	path, _ := writeIncomplete(t, 30, 10)
	dir := t.TempDir()
	var warnings []string
	r := &Runner{Load: fileLoader(path), OutDir: dir, Jobs: 2, Warn: func(w string) { warnings = append(warnings, w) }}
	if _, err := r.Run(context.Background(), missingStudy(protocol.MissingImpute, "clean", "holdout")); err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("impute warns %q", warnings)
	}
	m, err := manifest.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range m.Datasets[0].Use {
		if u.Policy != "impute" || u.RowsUsed != 300 || u.RowsDropped != 0 || u.CellsImputed != 40 {
			t.Errorf("use %+v, want 300 rows and 40 cells imputed", u)
		}
	}
	if got := rowsPerFold(t, dir); got["clean"] != 300 {
		t.Errorf("clean folds hold %d rows, want 300", got["clean"])
	}
	// A directory of drop's units refuses impute's: another experiment.
	if _, err := (&Runner{Load: fileLoader(path), OutDir: dir, Jobs: 2}).Run(context.Background(), missingStudy("", "clean", "holdout")); err == nil || !strings.Contains(err.Error(), "missing=impute") {
		t.Errorf("drop on impute's directory: %v, want a refusal naming missing=impute", err)
	}
}

// TestMissingPolicyIdentity: impute is part of a unit's identity; drop,
// spelled or not, and error are today's identity (results made before the
// policy existed stay valid), under every protocol.
func TestMissingPolicyIdentity(t *testing.T) {
	sums := map[string]string{"mine": "x"}
	hashes := func(policy string, protocols ...string) []string {
		id, err := study.IdentityOf(missingStudy(policy, protocols...), sums)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, g := range id.Groups {
			out = append(out, g.Hash)
		}
		return out
	}
	for _, protocols := range [][]string{{"paper", "clean", "holdout"}, {"clean", "holdout"}} {
		base := hashes("", protocols...)
		for _, policy := range []string{protocol.MissingDrop, protocol.MissingError} {
			if got := hashes(policy, protocols...); !reflect.DeepEqual(got, base) {
				t.Errorf("%v with %s: identity %v, want the default's %v", protocols, policy, got, base)
			}
		}
	}
	drop, impute := hashes("", "clean", "holdout"), hashes(protocol.MissingImpute, "clean", "holdout")
	for i := range drop {
		if drop[i] == impute[i] {
			t.Errorf("group %d: impute has drop's identity %s", i, drop[i])
		}
	}
}

// TestMissingErrorRefusesIncompleteData: policy error refuses the file in
// one line naming its first missing cell, before anything is written, and
// accepts a complete file.
func TestMissingErrorRefusesIncompleteData(t *testing.T) {
	path, line := writeIncomplete(t, 30, 10)
	dir := filepath.Join(t.TempDir(), "out")
	_, err := (&Runner{Load: fileLoader(path), OutDir: dir, Jobs: 2}).Run(context.Background(), missingStudy(protocol.MissingError, "paper", "clean"))
	want := fmt.Sprintf("%s:%d: column 2 (x1): missing value (40 missing cells in 30 of 300 rows)", path, line)
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error policy: %v, want one line beginning %q", err, want)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the refused run left %s behind (%v)", dir, err)
	}
	complete, _ := writeIncomplete(t, 0, 10)
	if _, err := (&Runner{Load: fileLoader(complete), OutDir: dir, Jobs: 2}).Run(context.Background(), missingStudy(protocol.MissingError, "clean")); err != nil {
		t.Errorf("error policy on a complete file: %v", err)
	}
}

// TestPaperRefusesImpute: one line, before any data is loaded.
func TestPaperRefusesImpute(t *testing.T) {
	_, err := (&Runner{Load: func(context.Context, string) (*datasets.Dataset, error) {
		t.Fatal("the refusal loaded data")
		return nil, nil
	}, OutDir: t.TempDir()}).Run(context.Background(), missingStudy(protocol.MissingImpute, "paper", "clean"))
	if err == nil || !strings.Contains(err.Error(), "impute applies to the clean and holdout protocols only") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("paper with impute: %v", err)
	}
}
