package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestExecutionParamsAreNotIdentity: FGA's workers changes how a unit runs,
// not its rows, so a directory made with one value resumes with another,
// shards run with different values merge, the config column leaves it out,
// and the manifest records the values each invocation used.
func TestExecutionParamsAreNotIdentity(t *testing.T) {
	studyWith := func(workers string) study.Study {
		return study.Study{Protocols: []string{"clean"}, Datasets: []string{"alpha"}, Options: protocol.DefaultOptions(),
			Methods: []study.MethodSpec{{Name: "fga", Params: map[string]string{"generations": "2", "population": "4", "workers": workers}}}}
	}
	dir := t.TempDir()
	first, err := (&Runner{Load: testLoader, OutDir: dir, Jobs: 2}).Run(context.Background(), studyWith("1"))
	if err != nil || first.Failed > 0 {
		t.Fatalf("first run: %v %v", err, first.Errors)
	}
	again, err := (&Runner{Load: testLoader, OutDir: dir, Jobs: 2}).Run(context.Background(), studyWith("3"))
	if err != nil || again.Skipped != first.Units || again.Ran != 0 {
		t.Fatalf("re-run with workers=3: %+v, %v; want every unit resumed", again, err)
	}
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if strings.Contains(r.Config, "workers") {
			t.Fatalf("config column %q records an execution parameter", r.Config)
		}
	}
	man, err := manifest.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	var used []string
	for _, h := range man.History {
		used = append(used, strings.Join(h.Execution, ","))
	}
	if want := []string{"fga: workers=1", "fga: workers=3"}; !slices.Equal(used, want) {
		t.Fatalf("manifest history records execution %q, want %q", used, want)
	}

	shards := []string{t.TempDir(), t.TempDir()}
	for i, w := range []string{"1", "2"} {
		r := &Runner{Load: testLoader, OutDir: shards[i], Jobs: 2, Shard: study.Shard{Index: i, Count: 2}}
		if _, err := r.Run(context.Background(), studyWith(w)); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	if _, err := outdir.Merge(out, shards, outdir.MergeOptions{}); err != nil {
		t.Fatalf("shards run with workers 1 and 2 do not merge: %v", err)
	}
	merged, err := results.ReadFile(filepath.Join(out, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if len(merged) != len(recs) {
		t.Fatalf("merged %d rows, the single run %d", len(merged), len(recs))
	}
}

// TestSweepOverExecutionParamRefused: configurations that differ only in
// workers are one configuration of the results; a sweep over it is refused.
func TestSweepOverExecutionParamRefused(t *testing.T) {
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"alpha"}, Options: protocol.DefaultOptions(),
		Methods: []study.MethodSpec{{Name: "fga", Sweep: map[string][]string{"workers": {"1", "2"}}}}}
	_, err := study.UnitsOf(s)
	if err == nil || !strings.Contains(err.Error(), "differ only in workers") {
		t.Fatalf("sweep over workers: %v", err)
	}
}
