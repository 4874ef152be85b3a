package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/external/externaltest"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results"
)

// externalStudy evaluates the Go adapter under both protocols: a swept
// parameter selected by inner CV (clean) or test accuracy (paper), and the
// same sweep reported point by point.
func externalStudy(adapter, flag string) study.Study {
	o := protocol.DefaultOptions()
	o.Folds, o.InnerFolds = 3, 2
	spec := func() *external.Spec {
		return &external.Spec{Command: adapter + " {dir} {seed} {mode}", Params: map[string]string{"mode": "fail-if-flag", "flag": flag, "k": "1"}}
	}
	return study.Study{
		Protocols: []string{"clean", "paper"},
		Datasets:  []string{"alpha"},
		Methods: []study.MethodSpec{
			{Name: "external", Label: "ext", External: spec(), Sweep: map[string][]string{"k": {"1", "2"}}},
			{Name: "external", Label: "ext-sweep", External: spec(), Sweep: map[string][]string{"k": {"1", "2"}}, Selection: protocol.SelectSweep},
		},
		Options: o,
	}
}

func runExternal(t *testing.T, dir string, s study.Study, shard study.Shard) (Summary, error) {
	t.Helper()
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2, Shard: shard}
	return r.Run(context.Background(), s)
}

// TestExternalMethodStudy: failing units of an external method are one-line
// errors with the adapter's stderr, leave nothing in results.csv, and are
// the only units a resume re-runs; the result equals an uninterrupted run
// and the merge of shards.
func TestExternalMethodStudy(t *testing.T) {
	adapter := externaltest.GoAdapter(t)
	flag := filepath.Join(t.TempDir(), "flag")
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s := externalStudy(adapter, flag)
	dir := t.TempDir()
	first, err := runExternal(t, dir, s, study.Shard{})
	if err == nil || first.Failed == 0 || first.Ran == 0 {
		t.Fatalf("want some failed and some finished units, got %+v, %v", first, err)
	}
	t.Logf("first run: %d units, %d ran, %d failed; e.g. %s", first.Units, first.Ran, first.Failed, first.Errors[0])
	for _, e := range first.Errors {
		if strings.Contains(e, "\n") || !strings.Contains(e, "exited with status 1: goadapter: flag set") {
			t.Errorf("failure %q is not one explaining line", e)
		}
	}
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	perKey := map[string]int{}
	for _, r := range recs {
		perKey[r.Key]++
		if !strings.Contains(r.Config, "adapter_sha256=") || !strings.Contains(r.Config, "command="+adapter) {
			t.Fatalf("config %q lacks the command or the adapter checksum", r.Config)
		}
	}
	if len(perKey) != first.Ran {
		t.Errorf("%d units in results.csv, %d ran", len(perKey), first.Ran)
	}
	for k, n := range perKey {
		if want := map[bool]int{true: 2, false: 1}[strings.Contains(k, "ext-sweep") || strings.HasPrefix(k, "paper/")]; n != want {
			t.Errorf("unit %s has %d rows, want %d", k, n, want)
		}
	}

	if err := os.Remove(flag); err != nil {
		t.Fatal(err)
	}
	second, err := runExternal(t, dir, s, study.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	if second.Ran != first.Failed || second.Skipped != first.Ran {
		t.Errorf("resume ran %d and skipped %d, want the %d failed and %d finished", second.Ran, second.Skipped, first.Failed, first.Ran)
	}
	ref := t.TempDir()
	if _, err := runExternal(t, ref, s, study.Shard{}); err != nil {
		t.Fatal(err)
	}
	want := stripTiming(t, filepath.Join(ref, results.FileName))
	if got := stripTiming(t, filepath.Join(dir, results.FileName)); got != want {
		t.Error("resumed results differ from an uninterrupted run")
	}
	var inputs []string
	for i := 0; i < 2; i++ {
		sd := t.TempDir()
		if _, err := runExternal(t, sd, s, study.Shard{Index: i, Count: 2}); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, filepath.Join(sd, results.FileName))
	}
	merged := filepath.Join(t.TempDir(), "merged.csv")
	if _, err := outdir.Merge(merged, inputs, outdir.MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := stripTiming(t, merged); got != want {
		t.Error("merged shards differ from one run")
	}
}

// TestExternalAdapterIsPartOfTheUnit: changing the adapter file changes
// every unit key of the method, so its rows can never count as the old
// study's.
func TestExternalAdapterIsPartOfTheUnit(t *testing.T) {
	adapter := externaltest.GoAdapter(t)
	s := externalStudy(adapter, "/nonexistent")
	keys := func(s study.Study) map[string]bool {
		t.Helper()
		ms, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		id, _, err := s.Identity(ms, nil)
		if err != nil {
			t.Fatal(err)
		}
		return id.Keys()
	}
	before := keys(s)
	f, err := os.OpenFile(adapter, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("changed"))
	f.Close()
	after := keys(externalStudy(adapter, "/nonexistent"))
	for k := range before {
		if after[k] {
			t.Fatalf("unit %s kept its key after the adapter changed", k)
		}
	}
	// A study whose spec pinned the old checksum refuses to resolve.
	pinned := externalStudy(adapter, "/nonexistent")
	pinned.Methods[0].External.AdapterSHA256 = strings.Repeat("a", 64)
	if _, err := study.UnitsOf(pinned); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("pinned checksum not enforced: %v", err)
	}
}

// TestExternalAdapterChangeRefusesResume: after the adapter changes, the
// directory of the old study is refused (a different study), with one line
// naming the checksums, and left as it was.
func TestExternalAdapterChangeRefusesResume(t *testing.T) {
	adapter := externaltest.GoAdapter(t)
	s := externalStudy(adapter, "/nonexistent")
	s.Protocols, s.Methods = []string{"clean"}, s.Methods[1:]
	dir := t.TempDir()
	if _, err := runExternal(t, dir, s, study.Shard{}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, results.FileName))
	oldSum, _ := external.FileSHA256(adapter)
	f, err := os.OpenFile(adapter, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("changed"))
	f.Close()
	newSum, _ := external.FileSHA256(adapter)
	s = externalStudy(adapter, "/nonexistent")
	s.Protocols, s.Methods = []string{"clean"}, s.Methods[1:]
	sum, err := runExternal(t, dir, s, study.Shard{})
	var mm *outdir.Mismatch
	if !errors.As(err, &mm) || sum.Ran != 0 {
		t.Fatalf("want a refused directory, got %v (ran %d)", err, sum.Ran)
	}
	msg := err.Error()
	t.Log(msg)
	if !strings.Contains(msg, oldSum) || !strings.Contains(msg, newSum) || strings.Contains(msg, "\n") {
		t.Errorf("message does not name both adapter checksums on one line: %s", msg)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, results.FileName)); string(after) != string(before) {
		t.Error("the refused run changed results.csv")
	}
}

// TestExternalUndeclaredNames: a params: or sweep: name that the external:
// block does not declare is refused naming the declared ones, and the fixed
// command and adapter checksum cannot be overridden.
func TestExternalUndeclaredNames(t *testing.T) {
	adapter := filepath.Join(t.TempDir(), "adapter.sh")
	if err := os.WriteFile(adapter, []byte("exit 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		params map[string]string
		sweep  map[string][]string
		want   string
	}{
		{"sweep", nil, map[string][]string{"b": {"1", "2"}}, `method ext: parameter "b" is not declared in external.params (declared: a, c)`},
		{"params", map[string]string{"a": "2", "zz": "3"}, nil, `method ext: parameter "zz" is not declared in external.params (declared: a, c)`},
		{"command", map[string]string{"command": "sh x"}, nil, "method ext: command is fixed by the external: block"},
		{"adapter", nil, map[string][]string{"adapter_sha256": {"00", "11"}}, "method ext: adapter_sha256 is fixed by the external: block"},
	}
	for _, c := range cases {
		s := testStudy()
		s.Methods = []study.MethodSpec{{Name: "external", Label: "ext", Params: c.params, Sweep: c.sweep,
			External: &external.Spec{Command: "sh " + adapter + " {dir}", Params: map[string]string{"a": "1", "c": "x"}}}}
		_, err := study.UnitsOf(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want error containing %q", c.name, err, c.want)
		}
	}
}

// TestInterruptStopsExternalCommand: cancelling the run (SIGINT or SIGTERM
// to fgrtbench) kills the external command in flight instead of waiting for
// it (up to its timeout); the interrupted units are not failures of the
// method and leave no rows (a resume runs them).
func TestInterruptStopsExternalCommand(t *testing.T) {
	adapter := externaltest.GoAdapter(t)
	o := protocol.DefaultOptions()
	o.Folds = 2
	s := study.Study{
		Protocols: []string{"clean"},
		Datasets:  []string{"alpha"},
		Methods: []study.MethodSpec{{Name: "external", Label: "ext",
			External: &external.Spec{Command: adapter + " {dir} {seed} {mode}", Params: map[string]string{"mode": "sleep"}, Timeout: "1m"}}},
		Options: o,
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	start := time.Now()
	progress := &countingProgress{}
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2, Progress: progress}
	sum, err := r.Run(ctx, s)
	if progress.done != 0 || progress.failed != 0 {
		t.Errorf("progress counted %d units done, %d failed; want none (they were interrupted)", progress.done, progress.failed)
	}
	if elapsed := time.Since(start); elapsed > 15*time.Second {
		t.Errorf("the interrupted run took %v: it waited for the sleeping command", elapsed)
	}
	if !errors.Is(err, context.Canceled) || sum.Failed != 0 || sum.Ran != 0 {
		t.Fatalf("interrupted run: %+v, %v; want context.Canceled, nothing failed or ran", sum, err)
	}
	if recs, err := results.ReadFile(filepath.Join(dir, results.FileName)); err != nil || len(recs) != 0 {
		t.Fatalf("results.csv after the interruption: %d rows, %v", len(recs), err)
	}
}

// countingProgress counts what the runner reports.
type countingProgress struct {
	mu           sync.Mutex
	done, failed int
}

func (p *countingProgress) Start(int, int64) {}
func (p *countingProgress) Finish()          {}
func (p *countingProgress) Done(_ study.Unit, _ int64, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if err != nil {
		p.failed++
	}
}

// TestManifestRecordsExternalProgram: the manifest notes the file an
// external command's program resolved to on the machine that ran it; the
// note is provenance only, so a study recorded on another host (another
// path) resumes the same directory.
func TestManifestRecordsExternalProgram(t *testing.T) {
	adapter := externaltest.GoAdapter(t)
	s := externalStudy(adapter, filepath.Join(t.TempDir(), "no-flag"))
	s.Methods = s.Methods[:1]
	s.Protocols = []string{"clean"}
	for _, m := range s.Methods {
		m.External.Program = "/elsewhere/bin/adapter" // as a manifest from another host says
	}
	dir := t.TempDir()
	if _, err := runExternal(t, dir, s, study.Shard{}); err != nil {
		t.Fatal(err)
	}
	if s.Methods[0].External.Program != "/elsewhere/bin/adapter" {
		t.Error("the run changed the caller's study")
	}
	raw, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Study study.Study `json:"study"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(adapter)
	if got := m.Study.Methods[0].External.Program; got != abs {
		t.Errorf("manifest records program %q, want %q", got, abs)
	}
	// Another recorded program is the same study: nothing runs again.
	if sum, err := runExternal(t, dir, s, study.Shard{}); err != nil || sum.Ran != 0 {
		t.Errorf("resuming with another recorded program: ran %d, %v", sum.Ran, err)
	}
}
