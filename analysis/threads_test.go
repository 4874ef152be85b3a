package analysis

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
)

// TestThreadsDoNotChangeTheAnalysis: the protocols' tests computed in
// parallel (Options.Threads) give the analysis of one thread, byte for
// byte in its JSON, on a study of three protocols whose methods differ
// between protocols.
func TestThreadsDoNotChangeTheAnalysis(t *testing.T) {
	base := records(map[string]map[string]float64{
		"a": {"d1": 0.9, "d2": 0.8, "d3": 0.7, "d4": 0.75},
		"b": {"d1": 0.85, "d2": 0.82, "d3": 0.6, "d4": 0.7},
		"c": {"d1": 0.8, "d2": 0.7, "d3": 0.65, "d4": 0.72},
	}, nil)
	var recs []results.Record
	for i, p := range []string{"clean", "paper", "holdout"} {
		for _, r := range base {
			r.Protocol = p
			r.Accuracy -= float64(i) * 0.01 * float64(r.Fold%2)
			recs = append(recs, r)
		}
	}
	encode := func(threads int) string {
		a, err := Compute(recs, Options{Threads: threads, Samples: 2000})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Tests) != 3 {
			t.Fatalf("%d protocols tested, want 3", len(a.Tests))
		}
		b, err := a.JSON()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := encode(1)
	for _, threads := range []int{0, 2, 3, 8} {
		if got := encode(threads); got != want {
			t.Errorf("Threads %d: the analysis differs from one thread's", threads)
		}
	}
}
