package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/results"
)

// TestHoldoutUnits: under holdout a stochastic method runs one unit per
// repeat (learner seed) on the one split, a deterministic one runs once, a
// grid is resolved on the validation part, and every row records seed 33.
func TestHoldoutUnits(t *testing.T) {
	o := protocol.DefaultOptions()
	o.Repeats = 3
	s := Study{
		Protocols: []string{"holdout"},
		Datasets:  []string{"alpha", "beta"},
		Methods: []MethodSpec{
			{Name: "test-centroid", Params: map[string]string{"jitter": "0.5"}},
			{Name: "cart"},
		},
		Options: o,
	}
	units, err := UnitsOf(s)
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
	dir := t.TempDir()
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2}
	sum, err := r.Run(context.Background(), s)
	if err != nil || sum.Failed > 0 {
		t.Fatalf("run: %v %v", err, sum.Errors)
	}
	recs, err := results.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
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
	if _, err := UnitsOf(s); err == nil || !strings.Contains(err.Error(), "no default selection") {
		t.Fatalf("grid under holdout_train 64: %v", err)
	}
	s.Methods[0].Selection = protocol.SelectTest
	if _, err := UnitsOf(s); err != nil {
		t.Fatal(err)
	}
}
