package runner

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestHoldoutUnits: under holdout a stochastic method runs one unit per
// repeat (learner seed) on the one split, a deterministic one runs once, a
// grid is resolved on the validation part, and every row records seed 33.
func TestHoldoutUnits(t *testing.T) {
	o := protocol.DefaultOptions()
	o.Repeats = 3
	s := study.Study{
		Protocols: []string{"holdout"},
		Datasets:  []string{"alpha", "beta"},
		Methods: []study.MethodSpec{
			{Name: "test-centroid", Params: map[string]string{"jitter": "0.5"}},
			{Name: "cart"},
		},
		Options: o,
	}
	units, err := study.UnitsOf(s)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, u := range units {
		count[u.Label]++
		if u.Fold != 0 || u.Seed != protocol.HoldoutSeed {
			t.Fatalf("unit %s: fold %d seed %d", u.Key, u.Fold, u.Seed)
		}
	}
	if count["test-centroid"] != 2*3 || count["cart"] != 2 {
		t.Fatalf("units per method %v, want 6 stochastic and 2 deterministic", count)
	}
	recs := runAndRead(t, s)
	nTest := map[string]int{}
	for _, rec := range recs {
		if rec.Protocol != "holdout" || rec.Seed != protocol.HoldoutSeed || !rec.Selected {
			t.Fatalf("row %+v", rec)
		}
		if rec.Method == "test-centroid" && rec.Selection != protocol.SelectInnerCV {
			t.Fatalf("grid not resolved on the validation part: %+v", rec)
		}
		if n, ok := nTest[rec.Dataset]; ok && n != rec.NTest {
			t.Fatalf("%s: test sizes %d and %d: repeats must share the split", rec.Dataset, n, rec.NTest)
		}
		nTest[rec.Dataset] = rec.NTest
	}
	if len(recs) != 8 {
		t.Fatalf("%d rows, want 8", len(recs))
	}

	// Training on the 64 % part leaves no validation rows: a grid needs an
	// explicit selection, refused before anything runs.
	s.Options.HoldoutTrain = protocol.HoldoutTrain64
	if _, err := study.UnitsOf(s); err == nil || !strings.Contains(err.Error(), "no default selection") {
		t.Fatalf("grid under holdout_train 64: %v", err)
	}
	s.Methods[0].Selection = protocol.SelectTest
	if _, err := study.UnitsOf(s); err != nil {
		t.Fatal(err)
	}
}

// TestHoldoutIdentity: the holdout option and FGA's partition mode are part
// of the unit identity, so a directory of one is never resumed as the other.
func TestHoldoutIdentity(t *testing.T) {
	baseStudy := func() study.Study {
		o := protocol.DefaultOptions()
		o.Repeats = 2
		return study.Study{Protocols: []string{"holdout"}, Datasets: []string{"alpha"}, Options: o,
			Methods: []study.MethodSpec{{Name: "fga", Params: map[string]string{"generations": "2", "population": "4"}}}}
	}
	base := t.TempDir()
	if _, err := (&Runner{Load: testLoader, OutDir: base, Jobs: 2}).Run(context.Background(), baseStudy()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		mutate func(*study.Study)
		want   string
	}{
		{"holdout_train", func(s *study.Study) { s.Options.HoldoutTrain = protocol.HoldoutTrain64 }, "holdout_train=64"},
		{"partitions", func(s *study.Study) { s.Methods[0].Params["partitions"] = "fixed" }, "partitions=fixed"},
	} {
		s := baseStudy()
		c.mutate(&s)
		dir := t.TempDir()
		copyDir(t, base, dir)
		_, err := (&Runner{Load: testLoader, OutDir: dir, Jobs: 2}).Run(context.Background(), s)
		var mm *outdir.Mismatch
		if !errors.As(err, &mm) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want a study mismatch naming %s, got %v", c.name, c.want, err)
		}
	}
}

// runAndRead runs study s on the test datasets with two workers and returns
// its rows; any failed unit fails the test.
func runAndRead(t *testing.T, s study.Study) []results.Record {
	t.Helper()
	dir := t.TempDir()
	sum, err := (&Runner{Load: testLoader, OutDir: dir, Jobs: 2}).Run(context.Background(), s)
	if err != nil || sum.Failed > 0 {
		t.Fatalf("run: %v %v", err, sum.Errors)
	}
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestFGAPartitionModeDefaults: FGA's default is evolved partitions under
// every protocol, and every protocol (the paper's included) runs fixed ones
// when asked.
func TestFGAPartitionModeDefaults(t *testing.T) {
	o := protocol.DefaultOptions()
	o.Repeats = 2
	small := map[string]string{"generations": "3", "population": "6", "workers": "1"}
	fixed := map[string]string{"partitions": "fixed"}
	for k, v := range small {
		fixed[k] = v
	}
	s := study.Study{
		Protocols: []string{"paper", "clean", "holdout"},
		Datasets:  []string{"alpha"},
		Methods:   []study.MethodSpec{{Name: "fga", Params: small}, {Name: "fga", Label: "fga-fixed", Params: fixed}},
		Options:   o,
	}
	recs := runAndRead(t, s)
	seen := map[string]bool{}
	for _, r := range recs {
		want := "partitions=evolved"
		if r.Method == "fga-fixed" {
			want = "partitions=fixed"
		}
		if !strings.Contains(r.Config, want) {
			t.Fatalf("%s %s: config %s lacks %s", r.Protocol, r.Method, r.Config, want)
		}
		seen[r.Protocol+"/"+r.Method] = true
	}
	if len(seen) != 6 {
		t.Fatalf("protocol/method pairs run: %v", seen)
	}
}
