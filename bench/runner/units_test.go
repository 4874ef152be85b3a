package runner

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestShardsPartitionTheUnits: with --shard-count N every index 0..N-1 runs
// a disjoint slice and together they are the study, so a stepped array plus
// the remaining indices (or any resubmit) covers it exactly once.
func TestShardsPartitionTheUnits(t *testing.T) {
	units, err := study.UnitsOf(testStudy())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 7, len(units), len(units) + 3} {
		seen := make([]int, len(units))
		for i := 0; i < n; i++ {
			for u := range units {
				if (study.Shard{Index: i, Count: n}).Contains(u) {
					seen[u]++
				}
			}
		}
		for u, k := range seen {
			if k != 1 {
				t.Fatalf("%d shards: unit %d in %d shards", n, u, k)
			}
		}
	}
}

func TestMissingUnits(t *testing.T) {
	s := testStudy()
	units, err := study.UnitsOf(s)
	if err != nil {
		t.Fatal(err)
	}
	var recs []results.Record
	for i, u := range units {
		if (study.Shard{Index: 0, Count: 3}).Contains(i) {
			recs = append(recs, results.Record{Protocol: u.Protocol, Dataset: u.Dataset, Method: u.Label, Repeat: u.Repeat, Fold: u.Fold, Seed: u.Seed})
		}
	}
	missing, err := study.MissingUnits(s, recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing)+len(recs) != len(units) || len(missing) == 0 {
		t.Fatalf("%d missing + %d present != %d units", len(missing), len(recs), len(units))
	}
	for _, u := range units {
		recs = append(recs, results.Record{Protocol: u.Protocol, Dataset: u.Dataset, Method: u.Label, Repeat: u.Repeat, Fold: u.Fold, Seed: u.Seed})
	}
	if missing, _ := study.MissingUnits(s, recs); len(missing) != 0 {
		t.Fatalf("complete results miss %d units", len(missing))
	}
}
