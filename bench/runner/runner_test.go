package runner

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// centroid is a deterministic toy learner: nearest class centroid over the
// first K features, with an optional seeded jitter so stochastic handling is
// exercised.
type centroid struct {
	k      int
	jitter float64
	seed   int64
}

type centroidModel struct {
	k    int
	cent [][]float64
}

func (c centroid) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	if err := learn.CheckXY(X, y, s, false); err != nil {
		return nil, err
	}
	k := min(c.k, len(s.Features))
	rng := rand.New(rand.NewPCG(uint64(c.seed), 7))
	m := &centroidModel{k: k, cent: make([][]float64, len(s.Classes))}
	n := make([]int, len(s.Classes))
	for i := range m.cent {
		m.cent[i] = make([]float64, k)
	}
	for i, row := range X {
		n[y[i]]++
		for j := 0; j < k; j++ {
			m.cent[y[i]][j] += row[j]
		}
	}
	for c2 := range m.cent {
		for j := range m.cent[c2] {
			if n[c2] > 0 {
				m.cent[c2][j] = m.cent[c2][j]/float64(n[c2]) + c.jitter*rng.NormFloat64()
			} else {
				m.cent[c2][j] = math.Inf(1)
			}
		}
	}
	return m, nil
}

func (m *centroidModel) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	for i, row := range X {
		best, bd := 0, math.Inf(1)
		for c, ce := range m.cent {
			d := 0.0
			for j := 0; j < m.k; j++ {
				d += (row[j] - ce[j]) * (row[j] - ce[j])
			}
			if d < bd {
				best, bd = c, d
			}
		}
		out[i] = best
	}
	return out
}

func (m *centroidModel) Complexity() learn.Complexity {
	return learn.Complexity{Rules: len(m.cent), Antecedents: len(m.cent) * m.k, Leaves: len(m.cent)}
}

// Rules prints one rule per centroid with one antecedent per used
// coordinate, as Complexity counts them (the learner contract).
func (m *centroidModel) Rules(s learn.Schema) string {
	var b strings.Builder
	for c, ce := range m.cent {
		b.WriteString("IF ")
		for j := 0; j < m.k; j++ {
			if j > 0 {
				b.WriteString(" AND ")
			}
			fmt.Fprintf(&b, "%s NEAR %.3g", s.FeatureName(j), ce[j])
		}
		fmt.Fprintf(&b, " THEN class %s\n", s.ClassName(c))
	}
	return b.String()
}

func init() {
	methods.Register(&learn.Spec{
		Name:    "test-centroid",
		Version: 1,
		Params: []learn.Param{
			{Name: "k", Kind: learn.Int, Default: "2", Min: 1, HasMin: true},
			{Name: "jitter", Kind: learn.Float, Default: "0", Min: 0, HasMin: true},
		},
		Grids:      map[string]learn.Grid{"default": {{"k": "1"}, {"k": "2"}, {"k": "3"}}},
		Stochastic: true,
		New: func(c learn.Values, seed int64) (learn.Trainer, error) {
			return centroid{k: c.Int("k"), jitter: c.Float("jitter"), seed: seed}, nil
		},
	})
}

// synthetic builds a small 3-class dataset with a learnable structure.
func synthetic(name string, n int, seed uint64) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := &datasets.Dataset{Name: name, Classes: []string{"a", "b", "c"}}
	for j := 0; j < 4; j++ {
		d.Inputs = append(d.Inputs, datasets.Attribute{Name: fmt.Sprintf("f%d", j), Type: "real", Min: math.NaN(), Max: math.NaN()})
	}
	for i := 0; i < n; i++ {
		c := i % 3
		row := make([]float64, 4)
		for j := range row {
			row[j] = rng.NormFloat64() + float64(c)*float64(j%2+1)*0.8
		}
		d.X = append(d.X, row)
		d.Y = append(d.Y, c)
	}
	return d
}

func testLoader(ctx context.Context, name string) (*datasets.Dataset, error) {
	switch name {
	case "alpha":
		return synthetic(name, 90, 1), nil
	case "beta":
		return synthetic(name, 61, 2), nil
	}
	return nil, fmt.Errorf("unknown dataset %q", name)
}

func testStudy() study.Study {
	o := protocol.DefaultOptions()
	o.Repeats = 2
	o.InnerFolds = 3
	return study.Study{
		Protocols: []string{"clean"},
		Datasets:  []string{"alpha", "beta"},
		Methods: []study.MethodSpec{
			{Name: "test-centroid"},
			{Name: "test-centroid", Selection: protocol.SelectSweep, Label: "centroid-sweep", Params: map[string]string{"jitter": "0.3"}},
			{Name: "test-centroid", Sweep: map[string][]string{"k": {"4", "1"}}, Selection: protocol.SelectTest, Label: "centroid-test"},
		},
		Options: o,
	}
}

// stripTiming returns the file without its timing columns.
func stripTiming(t *testing.T, path string) string {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range recs {
		r.FitSeconds, r.PredictSeconds = 0, 0
		b.WriteString(strings.Join(r.Fields(), ","))
		b.WriteByte('\n')
	}
	return b.String()
}

func runStudy(t *testing.T, dir string, jobs int, shard study.Shard) Summary {
	t.Helper()
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: jobs, Shard: shard}
	sum, err := r.Run(context.Background(), testStudy())
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return sum
}

func TestResultsIndependentOfJobs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	sa := runStudy(t, a, 1, study.Shard{})
	runStudy(t, b, 2, study.Shard{})
	ra, rb := stripTiming(t, filepath.Join(a, results.FileName)), stripTiming(t, filepath.Join(b, results.FileName))
	if ra != rb {
		t.Fatalf("-j1 and -j2 differ:\n%s\n---\n%s", ra, rb)
	}
	// 2 datasets x 3 methods x 2 repeats x 5 folds.
	if sa.Units != 60 || sa.Ran != 60 {
		t.Fatalf("units %d ran %d, want 60/60", sa.Units, sa.Ran)
	}
	recs, _ := results.ReadFile(filepath.Join(a, results.FileName))
	// inner-cv: 1 row, sweep: 3 rows, test-selected sweep of 2: 2 rows per unit.
	if want := 20*1 + 20*3 + 20*2; len(recs) != want {
		t.Fatalf("%d rows, want %d", len(recs), want)
	}
	selected := map[string]int{}
	for _, r := range recs {
		if r.Selected {
			selected[r.Key]++
		}
		if r.Method == "centroid-sweep" && (r.Selected || r.Selection != protocol.SelectSweep) {
			t.Fatalf("sweep row marked selected: %+v", r)
		}
		if r.Correct != int(math.Round(r.Accuracy*float64(r.NTest))) {
			t.Fatalf("accuracy %v does not re-derive from %d/%d", r.Accuracy, r.Correct, r.NTest)
		}
	}
	for k, n := range selected {
		if n != 1 {
			t.Fatalf("unit %s has %d selected rows", k, n)
		}
	}
}

func TestResumeSkipsFinishedUnits(t *testing.T) {
	dir := t.TempDir()
	runStudy(t, dir, 2, study.Shard{})
	first := stripTiming(t, filepath.Join(dir, results.FileName))
	sum := runStudy(t, dir, 2, study.Shard{})
	if sum.Ran != 0 || sum.Skipped != 60 {
		t.Fatalf("second run ran %d, skipped %d; want 0, 60", sum.Ran, sum.Skipped)
	}
	if got := stripTiming(t, filepath.Join(dir, results.FileName)); got != first {
		t.Fatal("resumed file differs")
	}
}

func TestResumeAfterTornWrite(t *testing.T) {
	ref := t.TempDir()
	runStudy(t, ref, 1, study.Shard{})
	want := stripTiming(t, filepath.Join(ref, results.FileName))

	// Keep the header and a few complete rows, cut the next unit short and
	// end in a half-written line: what a crash during append can leave.
	data, _ := os.ReadFile(filepath.Join(ref, results.FileName))
	lines := strings.SplitAfter(string(data), "\n")
	torn := strings.Join(lines[:40], "") + lines[40][:len(lines[40])/2]
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, results.FileName), []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := runStudy(t, dir, 2, study.Shard{})
	if sum.Skipped == 0 || sum.Ran == 0 {
		t.Fatalf("resume skipped %d, ran %d", sum.Skipped, sum.Ran)
	}
	if got := stripTiming(t, filepath.Join(dir, results.FileName)); got != want {
		t.Fatalf("resumed results differ from an uninterrupted run")
	}
}

// TestKillNineThenResume runs the study in a child process that SIGKILLs
// itself after some units are on disk, then resumes in this process.
func TestKillNineThenResume(t *testing.T) {
	if dir := os.Getenv("FGRT_RUNNER_KILL_DIR"); dir != "" {
		after, _ := strconv.Atoi(os.Getenv("FGRT_RUNNER_KILL_AFTER"))
		r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2, afterUnit: func(done int) {
			if done == after {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}}
		r.Run(context.Background(), testStudy())
		os.Exit(3) // not reached when the kill happened
	}
	ref := t.TempDir()
	runStudy(t, ref, 2, study.Shard{})
	want := stripTiming(t, filepath.Join(ref, results.FileName))
	for _, after := range []string{"1", "17", "59"} {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillNineThenResume$")
		cmd.Env = append(os.Environ(), "FGRT_RUNNER_KILL_DIR="+dir, "FGRT_RUNNER_KILL_AFTER="+after)
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("child was not killed: %v", err)
		}
		sum := runStudy(t, dir, 1, study.Shard{})
		n, _ := strconv.Atoi(after)
		if sum.Skipped < n {
			t.Fatalf("after kill at %s units, resume found only %d finished", after, sum.Skipped)
		}
		if got := stripTiming(t, filepath.Join(dir, results.FileName)); got != want {
			t.Fatalf("kill after %s units then resume differs from an uninterrupted run", after)
		}
	}
}

func TestShardsMergeToOneRun(t *testing.T) {
	ref := t.TempDir()
	runStudy(t, ref, 2, study.Shard{})
	var inputs []string
	total := 0
	for i := 0; i < 3; i++ {
		dir := t.TempDir()
		s := runStudy(t, dir, 1, study.Shard{Index: i, Count: 3})
		total += s.Units
		inputs = append(inputs, filepath.Join(dir, results.FileName))
	}
	if total != 60 {
		t.Fatalf("shards cover %d units, want 60", total)
	}
	// Merging a file with itself must de-duplicate.
	inputs = append(inputs, inputs[0])
	out := filepath.Join(t.TempDir(), "merged.csv")
	if _, err := outdir.Merge(out, inputs, outdir.MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, want := stripTiming(t, out), stripTiming(t, filepath.Join(ref, results.FileName)); got != want {
		t.Fatal("merged shards differ from one run")
	}
}

func TestStudyErrors(t *testing.T) {
	base := testStudy()
	cases := []struct {
		name   string
		mutate func(*study.Study)
		want   string
	}{
		{"unknown method", func(s *study.Study) { s.Methods = []study.MethodSpec{{Name: "nope"}} }, "unknown method"},
		{"unknown param", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "test-centroid", Params: map[string]string{"zz": "1"}}}
		}, "no parameter"},
		{"bad value", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "test-centroid", Params: map[string]string{"k": "0"}}}
		}, "below the minimum"},
		{"unknown grid", func(s *study.Study) { s.Methods = []study.MethodSpec{{Name: "test-centroid", Grid: "zz"}} }, "no grid"},
		{"duplicate label", func(s *study.Study) { s.Methods = []study.MethodSpec{{Name: "test-centroid"}, {Name: "test-centroid"}} }, "label"},
		{"unknown protocol", func(s *study.Study) { s.Protocols = []string{"x"} }, "unknown protocol"},
		{"bad selection", func(s *study.Study) { s.Methods = []study.MethodSpec{{Name: "test-centroid", Selection: "best"}} }, "selection"},
		{"one fold", func(s *study.Study) { s.Options.Folds = 1 }, "folds"},
		// Each value is valid alone; the learner refuses the combination.
		{"refused combination", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "fga", Params: map[string]string{"partition": "paper"}}}
		}, "method fga: fga: the paper's partition formula applies to fixed partitions only"},
		{"refused sweep point", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "fga", Params: map[string]string{"partitions": "fixed", "partition": "paper"}, Sweep: map[string][]string{"n_labels": {"3", "5"}}}}
		}, "configuration crossover_prob=0.3;generations=100;n_ants=3;n_labels=5;"},
		{"learner's own range", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "c45", Params: map[string]string{"confidence": "0"}}}
		}, "method c45: c45: confidence 0 outside (0, 0.5]"},
		{"inner-cv under paper", func(s *study.Study) {
			s.Protocols = []string{"paper"}
			s.Methods = []study.MethodSpec{{Name: "test-centroid", Selection: protocol.SelectInnerCV}}
		}, "needs inner folds"},
	}
	for _, c := range cases {
		s := base
		s.Methods = append([]study.MethodSpec(nil), base.Methods...)
		c.mutate(&s)
		_, err := study.UnitsOf(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want error containing %q", c.name, err, c.want)
		}
	}
}
