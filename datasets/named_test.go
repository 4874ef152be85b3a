package datasets

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoadAsAndSummaries: a data file of the user's own loads under the
// name a study gives it, reports its reading progress, and summarises with
// its table's identity; a name that is neither a registry dataset nor a
// data file is refused before anything loads.
func TestLoadAsAndSummaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.csv")
	if err := os.WriteFile(path, []byte("a,b,class\n1,2,x\n3,4,y\n5,,x\n7,8,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var progressed []string
	f := &Fetcher{CacheDir: dir, FileProgress: func(p string) func(read, size int64) {
		progressed = append(progressed, p)
		return func(read, size int64) {}
	}}
	ds, err := f.LoadAs(context.Background(), "mine.csv", path)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Name != "mine.csv" || len(ds.X) != 4 || !slices.Equal(progressed, []string{path}) {
		t.Errorf("LoadAs: name %q, %d rows, progress asked for %v", ds.Name, len(ds.X), progressed)
	}
	rows, err := f.Summaries(context.Background(), []string{path})
	if err != nil {
		t.Fatal(err)
	}
	want := "identity " + Identity(ds)
	if len(rows) != 1 || rows[0].Instances != 4 || rows[0].MissingRows != 1 || !slices.Contains(rows[0].Notes, want) {
		t.Errorf("Summaries: %+v, want one row of 4 instances, 1 with a missing cell, noting %q", rows, want)
	}
	for _, bad := range []string{"no-such-dataset", "../wine"} {
		if _, err := f.Summaries(context.Background(), []string{bad}); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("Summaries(%q): error %v, want one naming it", bad, err)
		}
	}
}
