package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/results"
)

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
	s := Study{
		Protocols: []string{"paper", "clean", "holdout"},
		Datasets:  []string{"alpha"},
		Methods:   []MethodSpec{{Name: "fga", Params: small}, {Name: "fga", Label: "fga-fixed", Params: fixed}},
		Options:   o,
	}
	dir := t.TempDir()
	sum, err := (&Runner{Load: testLoader, OutDir: dir, Jobs: 2}).Run(context.Background(), s)
	if err != nil || sum.Failed > 0 {
		t.Fatalf("run: %v %v", err, sum.Errors)
	}
	recs, err := results.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
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
