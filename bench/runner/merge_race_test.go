package runner

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/results"
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
	recs, err := results.ReadFile(filepath.Join(out, ResultsFile))
	if err != nil || len(recs) == 0 {
		t.Fatalf("the second merge's rows: %d, %v", len(recs), err)
	}
	sum, err := outdir.Merge(out, dirs[:2], outdir.MergeOptions{})
	if err != nil || sum.Partial || sum.PresentUnits != 60 {
		t.Fatalf("merging again: %+v, %v", sum, err)
	}
}
