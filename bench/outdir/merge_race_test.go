package outdir_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// TestMergesIntoOneNewDirectoryAtOnce: two merges into one --out that does
// not exist yet, the second running to its end while the first is between
// reading its inputs and writing (its Commit). The first must not write
// over the second's merge: it is refused in one line, the second's rows
// stay, and running it again merges both. Before, the first wrote its rows
// without the directory's lock over the second's, which were lost.
func TestMergesIntoOneNewDirectoryAtOnce(t *testing.T) {
	dirs := shardDirs(t, 3, testStudy())
	out := filepath.Join(t.TempDir(), "merged")
	partial := outdir.MergeOptions{AllowPartial: true}
	var second error
	first := partial
	first.Commit = func() error {
		_, second = outdir.Merge(out, dirs[2:], partial)
		return nil
	}
	_, err := outdir.Merge(out, dirs[:2], first)
	if second != nil {
		t.Fatalf("the second merge: %v", second)
	}
	var meanwhile *outdir.WrittenMeanwhile
	if !errors.As(err, &meanwhile) {
		t.Fatalf("the first merge: err = %v, want it refused as written meanwhile", err)
	}
	recs, err := results.ReadFile(filepath.Join(out, results.FileName))
	if err != nil || len(recs) == 0 {
		t.Fatalf("the second merge's rows: %d, %v", len(recs), err)
	}
	sum, err := outdir.Merge(out, dirs[:2], outdir.MergeOptions{})
	if err != nil || sum.Partial || sum.PresentUnits != 60 {
		t.Fatalf("merging again: %+v, %v", sum, err)
	}
}

// TestFilesOfABusyDirectoryAreNotAStrangers: a merge writes its artifacts,
// then results.csv, then its manifest, so a second merge (or run) starting
// meanwhile finds artifacts, or results, without a manifest. While the
// directory's lock is held they are refused as Busy (another fgrtbench
// process is writing there: wait), not as a stranger's files; once it is
// free, such files without a manifest are refused as before. Before, the
// second merge said the artifacts were "not written by fgrtbench", or
// that whose results they were was unknown (seen in the shared_results
// script under load).
func TestFilesOfABusyDirectoryAreNotAStrangers(t *testing.T) {
	dirs := shardDirs(t, 2, testStudy())
	for _, c := range []struct {
		name, file string
		target     func(out string) string // what the merge is given
		free       string                  // the refusal once the lock is free
	}{
		{"artifacts only", artifacts.PredictionsFile, func(out string) string { return out }, "was not written by fgrtbench"},
		{"results only", results.FileName, func(out string) string { return filepath.Join(out, results.FileName) }, "without a manifest.json beside it"},
	} {
		out := t.TempDir()
		copyFile(t, filepath.Join(dirs[0], c.file), filepath.Join(out, c.file))
		release, err := outdir.Lock(out)
		if err != nil {
			t.Fatal(err)
		}
		_, err = outdir.Merge(c.target(out), dirs, outdir.MergeOptions{})
		var busy *outdir.Busy
		if !errors.As(err, &busy) {
			t.Errorf("merging into a locked directory holding %s: err = %v, want Busy", c.name, err)
		}
		release()
		_, err = outdir.Merge(c.target(out), dirs, outdir.MergeOptions{})
		if err == nil || errors.As(err, &busy) || !strings.Contains(err.Error(), c.free) {
			t.Errorf("merging into a free directory holding %s: err = %v, want them refused as not fgrtbench's (%q)", c.name, err, c.free)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResultsWhoseWriterFinishesMeanwhile: a merge finds results.csv
// without a manifest, and the writer that held the directory's lock writes
// its manifest and lets go before the merge looks at the lock. The merge
// reads the directory again and merges into it, instead of refusing its
// results as a stranger's (what the shared_results script met under
// load).
func TestResultsWhoseWriterFinishesMeanwhile(t *testing.T) {
	dirs := shardDirs(t, 2, testStudy())
	out := t.TempDir()
	entries, err := os.ReadDir(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() && e.Name() != "manifest.json" {
			copyFile(t, filepath.Join(dirs[0], e.Name()), filepath.Join(out, e.Name()))
		}
	}
	finished := 0
	defer outdir.SetAfterManifestRead(func() {
		if finished++; finished == 1 {
			copyFile(t, filepath.Join(dirs[0], "manifest.json"), filepath.Join(out, "manifest.json"))
		}
	})()
	sum, err := outdir.Merge(out, dirs, outdir.MergeOptions{})
	if err != nil {
		t.Fatalf("merging into a directory whose writer finished meanwhile: %v", err)
	}
	if finished != 1 || sum.Partial || sum.PresentUnits != 60 {
		t.Errorf("hook ran %d times; merge %+v", finished, sum)
	}
}

// TestStrayArtifactsWhoseWriterFinishedMeanwhile: StrayArtifacts is asked
// about a directory its caller found without a manifest; when one is there
// by the time the lock is found free, the writer finished in between, and
// its artifacts are refused as Busy (wait, run again), not as a stranger's.
func TestStrayArtifactsWhoseWriterFinishedMeanwhile(t *testing.T) {
	dirs := shardDirs(t, 1, testStudy())
	out := t.TempDir()
	copyFile(t, filepath.Join(dirs[0], artifacts.PredictionsFile), filepath.Join(out, artifacts.PredictionsFile))
	err := outdir.StrayArtifacts(out)
	var busy *outdir.Busy
	if err == nil || errors.As(err, &busy) {
		t.Fatalf("artifacts alone: %v, want them refused as a stranger's", err)
	}
	copyFile(t, filepath.Join(dirs[0], "manifest.json"), filepath.Join(out, "manifest.json"))
	if err := outdir.StrayArtifacts(out); !errors.As(err, &busy) {
		t.Errorf("artifacts with a manifest written meanwhile: %v, want Busy", err)
	}
}
