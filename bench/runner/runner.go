package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/results"
)

// ResultsFile is the name of the results file inside an output directory.
const ResultsFile = results.FileName

// Loader returns a dataset by name.
type Loader func(ctx context.Context, name string) (*datasets.Dataset, error)

// Progress receives one call per finished unit. It must be safe for
// concurrent use; the runner calls it from its writer goroutine only.
type Progress interface {
	Start(total int)
	Done(u Unit, err error)
	Finish()
}

// Runner executes a study into an output directory.
type Runner struct {
	Load     Loader
	OutDir   string
	Jobs     int   // worker count; <= 0 means runtime.NumCPU()
	Shard    Shard // zero value = all units
	Progress Progress
	// FailFast stops at the first failing unit instead of running the rest.
	FailFast bool
	// NoArtifacts turns off the per-unit artifacts (predictions.csv.gz,
	// models.jsonl.gz) for a directory that has none yet.
	NoArtifacts bool
	// afterUnit is a test hook called after each unit's rows are on disk.
	afterUnit func(done int)
	// openResults opens results.csv for appending (nil: the file system);
	// tests inject a file that fails like a full disk.
	openResults func(path string) (appendFile, error)
	plans       *planCache // built by Validate, used by Run
	stages      Stages
}

// Stages returns the time the runner's runs spent in each stage so far.
func (r *Runner) Stages() *Stages { return &r.stages }

// Summary tells what a run did.
type Summary struct {
	Units, Skipped, Ran, Failed int
	// Healed counts the units whose rows resume dropped because their
	// artifacts were missing or torn (they ran again).
	Healed      int
	Errors      []string
	ResultsPath string
}

// Run executes every unit of the study that is in the shard and not yet in
// results.csv, then rewrites results.csv in canonical order.
//
// Before anything is written it loads every dataset, computes the study's
// identity and refuses a directory that holds results of another study
// (see CheckDir). It keeps OutDir/manifest.json up to date: the study, its
// identity, the datasets and one history entry per invocation.
func (r *Runner) Run(ctx context.Context, s Study) (Summary, error) {
	ms, err := r.validate(ctx, s)
	if err != nil {
		return Summary{}, err
	}
	plans := r.planCache(s.Options)
	checksums, records, err := plans.describe(ctx, s.Datasets)
	if err != nil {
		return Summary{}, err
	}
	id, all, err := s.Identity(ms, checksums)
	if err != nil {
		return Summary{}, err
	}
	path := filepath.Join(r.OutDir, ResultsFile)
	sum := Summary{ResultsPath: path}
	prev, err := CheckDir(r.OutDir, id)
	if err != nil {
		return sum, err
	}
	if err := sameSplit(r.OutDir, prev, r.Shard); err != nil {
		return sum, err
	}

	var todo []Unit
	for i, u := range all {
		if r.Shard.Contains(i) {
			todo = append(todo, u)
		}
	}
	sum.Units = len(todo)

	if err := os.MkdirAll(r.OutDir, 0o755); err != nil {
		return sum, err
	}
	// Refusals here, like the check above, come before any unit is
	// considered: the summary is empty.
	release, err := lockDir(r.OutDir)
	if err != nil {
		return Summary{ResultsPath: path}, err
	}
	defer release()
	// Check again under the lock: a run that finished in between may have
	// written the directory for another study.
	prev, existing, err := checkDir(r.OutDir, id)
	if err != nil {
		return Summary{ResultsPath: path}, err
	}
	if err := sameSplit(r.OutDir, prev, r.Shard); err != nil {
		return Summary{ResultsPath: path}, err
	}
	keepArtifacts, err := artifactsMode(r.OutDir, r.NoArtifacts, existing)
	if err != nil {
		return Summary{ResultsPath: path}, err
	}
	if keepArtifacts {
		// A unit whose artifacts are missing or torn is not done: its rows
		// go, and it runs again, so that every reader can check it.
		if existing, sum.Healed, err = dropUnitsWithoutArtifacts(r.OutDir, existing, todo); err != nil {
			return Summary{ResultsPath: path}, err // a refusal: nothing considered yet
		}
	}
	done, err := resume(path, existing, todo)
	if err != nil {
		return sum, err
	}
	if keepArtifacts {
		if err := retainArtifacts(r.OutDir, existing, done, todo); err != nil {
			return sum, &WriteError{Path: filepath.Join(r.OutDir, results.PredictionsFile), Err: err}
		}
	}
	var pending []Unit
	for _, u := range todo {
		if !done[u.Key] {
			pending = append(pending, u)
		}
	}
	sum.Skipped = len(todo) - len(pending)

	man := manifest.New(withPrograms(s), r.Jobs, r.Shard.String())
	man.Identity = &id
	man.Execution = executionRecord(ms)
	man.Methods = methodEntries(ms)
	man.Datasets = mergeDatasets(prev, records)
	man.Units, man.Skipped = sum.Units, sum.Skipped
	man.Artifacts = ArtifactsOff
	if keepArtifacts {
		man.Artifacts = ArtifactsKept
	}
	man.Continue(prev, "running")
	t0 := time.Now()
	err = man.Write(r.OutDir)
	r.stages.since(StageWrite, t0)
	if err != nil {
		return sum, &WriteError{Path: filepath.Join(r.OutDir, manifest.FileName), Err: err}
	}
	sum, runErr := r.execute(ctx, s, ms, plans, path, pending, sum, keepArtifacts)
	man.End = time.Now().UTC()
	man.Ran, man.Failed, man.Errors = sum.Ran, sum.Failed, sum.Errors
	status := "complete"
	switch {
	case sum.Failed > 0:
		status = "failed"
	case runErr != nil:
		status = "interrupted"
	}
	t0 = time.Now()
	defer r.stages.since(StageWrite, t0)
	man.StageSeconds = r.stages.Seconds()
	man.Record(status)
	if err := man.Write(r.OutDir); err != nil && runErr == nil {
		runErr = err
	}
	return sum, runErr
}

// describe loads every dataset of the study (once, shared with the
// plans) before any unit runs, and returns the checksum each is identified
// by and its manifest record: the checksums are part of every unit's
// identity.
func (c *planCache) describe(ctx context.Context, names []string) (map[string]string, []manifest.Dataset, error) {
	checksums := map[string]string{}
	var records []manifest.Dataset
	for _, name := range names {
		if _, ok := checksums[name]; ok {
			continue
		}
		d, err := c.dataset(ctx, name)
		if err != nil {
			return nil, nil, err
		}
		sum := datasetChecksum(d)
		checksums[name] = sum
		path := d.Path
		if path == "" {
			path = name
		}
		counts := make([]int, len(d.Classes))
		for _, y := range d.Y {
			if y >= 0 && y < len(counts) {
				counts[y]++
			}
		}
		records = append(records, manifest.Dataset{Name: name, Path: path, NormalizedSHA256: sum, Rows: d.Rows(),
			Classes: append([]string(nil), d.Classes...), ClassCounts: counts})
	}
	return checksums, records, nil
}

// mergeDatasets keeps the datasets a directory's manifest already lists and
// adds (or refreshes) the ones this run loaded, sorted by name.
func mergeDatasets(prev *manifest.Manifest, loaded []manifest.Dataset) []manifest.Dataset {
	byName := map[string]manifest.Dataset{}
	if prev != nil {
		for _, d := range prev.Datasets {
			byName[d.Name] = d
		}
	}
	for _, d := range loaded {
		byName[d.Name] = d
	}
	out := make([]manifest.Dataset, 0, len(byName))
	for _, d := range byName {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// execute runs the pending units on a worker pool, appending each unit's
// rows to the results file as it finishes, and canonicalises the file.
func (r *Runner) execute(ctx context.Context, s Study, ms []resolvedMethod, plans *planCache, path string,
	pending []Unit, sum Summary, keepArtifacts bool) (Summary, error) {
	open := r.openResults
	if open == nil {
		open = openResultsFile
	}
	f, err := openAppender(path, open)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	arts, err := r.openArtifacts(ctx, s, plans, keepArtifacts)
	if err != nil {
		return sum, err
	}
	defer arts.close()

	if r.Progress != nil {
		r.Progress.Start(len(pending))
	}
	defer tightGC()()
	jobs := r.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		u    Unit
		rows []results.Record
		arts *unitArtifacts
		err  error
	}
	work := make(chan Unit)
	out := make(chan result)
	ex := &executor{ctx: ctx, stages: &r.stages, artifacts: arts.header()}
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				if ctx.Err() != nil {
					out <- result{u: u, err: ctx.Err()}
					continue
				}
				plan, err := plans.get(ctx, u.Protocol, u.Dataset)
				var rows []results.Record
				var ua *unitArtifacts
				if err == nil {
					rows, ua, err = ex.run(u, plan, ms[u.Method], s.Layout(u.Protocol).Folds)
				}
				out <- result{u: u, rows: rows, arts: ua, err: err}
			}
		}()
	}
	go func() {
		defer close(work)
		for _, u := range pending {
			select {
			case work <- u:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()

	var writeErr error
	for res := range out {
		if res.err != nil {
			if !errors.Is(res.err, context.Canceled) {
				sum.Failed++
				sum.Errors = append(sum.Errors, res.err.Error())
				if r.FailFast {
					cancel()
				}
			}
		} else if writeErr = r.writeUnitTimed(arts, f, res.rows, res.arts); writeErr != nil {
			// Stop: no further unit starts, the units in flight are
			// cancelled (an external command is killed) and awaited, so
			// that they clean up (their temporary directories) before the
			// process exits; their rows are dropped.
			cancel()
			for range out {
			}
			break
		} else {
			sum.Ran++
			if r.afterUnit != nil {
				r.afterUnit(sum.Ran)
			}
		}
		if r.Progress != nil && !errors.Is(res.err, context.Canceled) { // an interrupted unit is neither done nor failed
			r.Progress.Done(res.u, res.err)
		}
	}
	if r.Progress != nil {
		r.Progress.Finish()
	}
	if writeErr != nil {
		return sum, writeErr
	}
	if err := f.Close(); err != nil {
		return sum, err
	}
	t0 := time.Now()
	err = Canonicalize(path)
	r.stages.since(StageWrite, t0)
	if err != nil {
		return sum, &WriteError{Path: path, Err: fmt.Errorf("rewriting it in canonical order: %w", err)}
	}
	if err := arts.finish(); err != nil {
		return sum, err
	}
	sort.Strings(sum.Errors)
	if ctx.Err() != nil && sum.Failed == 0 && len(pending) > sum.Ran {
		return sum, ctx.Err()
	}
	if sum.Failed > 0 {
		return sum, fmt.Errorf("%d of %d units failed; first: %s", sum.Failed, len(pending), sum.Errors[0])
	}
	return sum, nil
}

// appendTimed appends a unit's rows, timed as the write stage.
func (r *Runner) writeUnitTimed(arts *artifactFiles, f *outdir.Appender, rows []results.Record, ua *unitArtifacts) error {
	defer r.stages.since(StageWrite, time.Now())
	return writeUnit(arts, f, rows, ua)
}

// Large studies collect garbage more often. Each fit allocates its
// learner's working memory afresh (hundreds of MB on 10^6 rows) while the
// data, the plans and every worker's scratch rows stay live; at Go's
// default GOGC of 100 the heap grows to twice the live memory between
// collections, which made a large study's peak memory twice what it
// holds. Collecting at 10 % growth costs little there: most of the live
// memory is pointer-free float64 arrays, which the collector does not
// scan. Small studies keep the default: with a heap of a few MB, 10 %
// would mean a collection every few hundred KB allocated.
const (
	largeHeap      = 256 << 20
	largeGCPercent = 10
)

// tightGC sets the collector's target to largeGCPercent when the heap
// (the loaded data and plans) is large, unless the user chose one (GOGC),
// and returns the function that restores it.
func tightGC() func() {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc < largeHeap {
		return func() {}
	}
	old := debug.SetGCPercent(largeGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// resume takes the rows checkDir read from the results file, keeps the
// rows of complete units (and of units outside this shard, which another
// shard may have written into the same directory; checkDir made sure they
// are units of the study), drops incomplete units and a torn last line,
// rewrites the file if it dropped anything, and returns the keys of the
// complete units.
func resume(path string, existing existingResults, todo []Unit) (map[string]bool, error) {
	done := map[string]bool{}
	recs := existing.Recs
	count := map[string]int{}
	for _, rec := range recs {
		count[rec.Key]++
	}
	want := map[string]int{}
	for _, u := range todo {
		want[u.Key] = u.Rows
	}
	var keep []results.Record
	dropped := existing.Truncated
	for _, rec := range recs {
		if n, ours := want[rec.Key]; ours && count[rec.Key] != n {
			dropped = true
			continue
		}
		keep = append(keep, rec)
	}
	for k, n := range want {
		if count[k] == n {
			done[k] = true
		}
	}
	if dropped {
		if err := writeAtomic(path, keep); err != nil {
			return nil, err
		}
	}
	return done, nil
}

// Canonicalize rewrites a results file sorted canonically (atomically).
func Canonicalize(path string) error {
	recs, err := results.ReadFile(path)
	if err != nil {
		return err
	}
	results.Sort(recs)
	return writeAtomic(path, recs)
}

// writeAtomic writes records to a temporary file in the same directory and
// renames it over path, so readers never see a half-written file.
func writeAtomic(path string, recs []results.Record) error {
	var b bytes.Buffer
	if err := results.Write(&b, recs); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b.Bytes())
}

// planCache builds each (protocol, dataset) plan once, loading each
// dataset once.
type planCache struct {
	stages   *Stages
	load     Loader
	opts     protocol.Options
	plans    memo[*protocol.Plan]
	datasets memo[*datasets.Dataset]
}

// memo computes one value per key once, for concurrent callers.
type memo[V any] struct {
	mu sync.Mutex
	m  map[string]*memoEntry[V]
}

type memoEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

func (c *memo[V]) get(key string, build func() (V, error)) (V, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*memoEntry[V]{}
	}
	e, ok := c.m[key]
	if !ok {
		e = &memoEntry[V]{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = build() })
	return e.v, e.err
}

// dataset loads a dataset once.
func (c *planCache) dataset(ctx context.Context, name string) (*datasets.Dataset, error) {
	return c.datasets.get(name, func() (*datasets.Dataset, error) {
		defer c.stages.since(StageLoad, time.Now())
		return c.load(ctx, name)
	})
}

func (c *planCache) get(ctx context.Context, proto, dataset string) (*protocol.Plan, error) {
	return c.plans.get(proto+"/"+dataset, func() (*protocol.Plan, error) {
		p, err := protocol.Lookup(proto)
		if err != nil {
			return nil, err
		}
		d, err := c.dataset(ctx, dataset)
		if err != nil {
			return nil, err
		}
		defer c.stages.since(StagePrepare, time.Now())
		l := p.Layout(c.opts)
		if err := CheckClasses(d, l.Folds); err != nil {
			return nil, err
		}
		plan, err := p.Plan(d, c.opts)
		if err != nil {
			return nil, err
		}
		if err := l.Check(plan); err != nil {
			return nil, err
		}
		return plan, nil
	})
}
