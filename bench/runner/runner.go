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

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// Loader returns a dataset by name.
type Loader func(ctx context.Context, name string) (*datasets.Dataset, error)

// Progress receives one call per finished unit. It must be safe for
// concurrent use; the runner calls it from its writer goroutine only.
// Work is a unit's training cells (order.go), and total work theirs
// summed: the units start largest first, so how far a run is shows in the
// work done as much as in the units done.
type Progress interface {
	Start(total int, work int64)
	Done(u study.Unit, work int64, err error)
	Finish()
}

// MaxJobs is the ceiling on a run's busy threads (-j). Workers never
// outnumber the pending units, so the ceiling guards against a typo, not
// against small studies: it is fixed rather than a multiple of the CPUs so
// that a command that runs on a large machine runs on a laptop too, and
// 4096 is five times the hardware threads of the largest two-socket
// servers (768), room for external methods that wait on I/O rather than a
// CPU. Each worker holds a unit's data and model, so more would only
// exhaust memory.
const MaxJobs = 4096

// Runner executes a study into an output directory.
type Runner struct {
	Load     Loader
	OutDir   string
	Jobs     int         // busy threads (units and the loops in their fits), at most MaxJobs; <= 0 means runtime.NumCPU()
	Shard    study.Shard // zero value = all units
	Progress Progress
	// FailFast stops at the first failing unit instead of running the rest.
	FailFast bool
	// Warn, when set, receives each warning of a run (one line, no
	// newline): a dataset whose incomplete rows are dropped, once per
	// dataset.
	Warn func(string)
	// NoArtifacts turns off the per-unit artifacts (predictions.csv.gz,
	// models.jsonl.gz) for a directory that has none yet.
	NoArtifacts bool
	// Memory is the run's memory budget in bytes (0: none): units start
	// only while their estimated footprints fit in it (memory.go).
	// MemorySource says where it came from, for the manifest.
	Memory       int64
	MemorySource string
	// UnitTimes, when set, receives each unit that ran (or failed) with
	// when it started and how long it ran, from the writer goroutine, in
	// the order units finish: what a study's schedule is measured by
	// (order.go; FGRTBENCH_UNIT_TIMES).
	UnitTimes func(UnitTime)
	// afterUnit is a test hook called after each unit's rows are on disk.
	afterUnit func(done int)
	// openResults opens results.csv for appending (nil: the file system);
	// tests inject a file that fails like a full disk.
	openResults func(path string) (outdir.AppendFile, error)
	plans       *planCache // built by Validate, used by Run
	stages      Stages
	// budget is the last run's CPU budget (its Peak is what tests check).
	budget *par.Budget
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
func (r *Runner) Run(ctx context.Context, s study.Study) (Summary, error) {
	if r.Jobs > MaxJobs {
		return Summary{}, fmt.Errorf("%d threads is above the ceiling of %d", r.Jobs, MaxJobs)
	}
	st, err := r.identify(ctx, s)
	if err != nil {
		return Summary{}, err
	}
	path := filepath.Join(r.OutDir, results.FileName)
	sum := Summary{ResultsPath: path}
	prev, err := outdir.CheckDir(r.OutDir, st.id)
	if err != nil {
		return sum, err
	}
	if err := study.SameSplit(r.OutDir, prev, r.Shard); err != nil {
		return sum, err
	}
	todo := shardUnits(r.Shard, st.all)
	sum.Units = len(todo)
	if err := os.MkdirAll(r.OutDir, 0o755); err != nil {
		return sum, err
	}
	// Refusals here, like the check above, come before any unit is
	// considered: the summary is empty.
	release, err := outdir.Lock(r.OutDir)
	if err != nil {
		return Summary{ResultsPath: path}, err
	}
	defer release()
	d, err := r.openDir(st.id, todo)
	if err != nil {
		return Summary{ResultsPath: path}, err
	}
	sum.Healed = d.healed
	pending, err := d.resume(path, todo)
	if err != nil {
		return sum, err
	}
	sum.Skipped = len(todo) - len(pending)
	man, err := r.startManifest(s, st, d, sum)
	if err != nil {
		return sum, err
	}
	sum, runErr := r.execute(ctx, s, st.ms, st.plans, path, pending, sum, d.keepArtifacts)
	return sum, r.endManifest(man, sum, runErr)
}

// shardUnits returns the units of all that belong to the shard, in order.
func shardUnits(shard study.Shard, all []study.Unit) []study.Unit {
	var todo []study.Unit
	for i, u := range all {
		if shard.Contains(i) {
			todo = append(todo, u)
		}
	}
	return todo
}

// runIdentity is what a run knows of its study before it touches the
// output directory.
type runIdentity struct {
	ms      []study.ResolvedMethod
	plans   *planCache
	id      identity.Study
	all     []study.Unit
	records []manifest.Dataset
}

// identify validates the study, loads its datasets (warning of dropped
// rows) and computes its identity and units.
func (r *Runner) identify(ctx context.Context, s study.Study) (runIdentity, error) {
	var st runIdentity
	var err error
	if st.ms, err = r.validate(ctx, s); err != nil {
		return st, err
	}
	st.plans = r.planCache(s.Options)
	checksums, records, err := st.plans.describe(ctx, s.Datasets, s.Protocols)
	if err != nil {
		return st, err
	}
	st.records = records
	if r.Warn != nil {
		for _, d := range records {
			if w := DropWarning(d); w != "" {
				r.Warn(w)
			}
		}
	}
	st.id, st.all, err = s.Identity(st.ms, checksums)
	return st, err
}

// runDir is the output directory as a locked run found it.
type runDir struct {
	prev          *manifest.Manifest
	existing      outdir.Existing
	keepArtifacts bool
	healed        int
	outDir        string
}

// openDir checks the locked directory again (a run that finished in
// between may have written it for another study), decides the artifacts'
// mode, and drops the rows of units whose artifacts are missing or torn:
// such a unit is not done, and runs again so that every reader can check
// it. Its errors are refusals: no unit has been considered yet.
func (r *Runner) openDir(id identity.Study, todo []study.Unit) (runDir, error) {
	d := runDir{outDir: r.OutDir}
	var err error
	if d.prev, d.existing, err = outdir.CheckDirResults(r.OutDir, id); err != nil {
		return d, err
	}
	if err := study.SameSplit(r.OutDir, d.prev, r.Shard); err != nil {
		return d, err
	}
	if d.keepArtifacts, err = artifactsMode(r.OutDir, r.NoArtifacts, d.existing); err != nil {
		return d, err
	}
	if d.keepArtifacts {
		d.existing, d.healed, err = dropUnitsWithoutArtifacts(r.OutDir, d.existing, todo)
	}
	return d, err
}

// resume keeps the complete units' rows (and their artifacts) and returns
// the units of todo still to run.
func (d *runDir) resume(path string, todo []study.Unit) ([]study.Unit, error) {
	done, err := resume(path, d.existing, todo)
	if err != nil {
		return nil, err
	}
	if d.keepArtifacts {
		if err := retainArtifacts(d.outDir, d.existing, done, todo); err != nil {
			return nil, &outdir.WriteError{Path: filepath.Join(d.outDir, artifacts.PredictionsFile), Err: err}
		}
	}
	var pending []study.Unit
	for _, u := range todo {
		if !done[u.Key] {
			pending = append(pending, u)
		}
	}
	return pending, nil
}

// startManifest writes the manifest of a run about to execute.
func (r *Runner) startManifest(s study.Study, st runIdentity, d runDir, sum Summary) (*manifest.Manifest, error) {
	man := manifest.New(study.WithPrograms(s), r.Jobs, r.Shard.String())
	man.Identity = &st.id
	man.Execution = study.ExecutionRecord(st.ms)
	man.Methods = study.Entries(st.ms)
	man.Datasets = mergeDatasets(d.prev, st.records)
	man.Units, man.Skipped = sum.Units, sum.Skipped
	man.Artifacts = outdir.ArtifactsOff
	if d.keepArtifacts {
		man.Artifacts = outdir.ArtifactsKept
	}
	man.Continue(d.prev, "running")
	defer r.stages.since(StageWrite, time.Now())
	if err := man.Write(r.OutDir); err != nil {
		return nil, &outdir.WriteError{Path: filepath.Join(r.OutDir, manifest.FileName), Err: err}
	}
	return man, nil
}

// endManifest records how the run ended and returns its error (or the
// manifest's, when the run had none).
func (r *Runner) endManifest(man *manifest.Manifest, sum Summary, runErr error) error {
	man.End = time.Now().UTC()
	man.Ran, man.Failed, man.Errors = sum.Ran, sum.Failed, sum.Errors
	status := "complete"
	switch {
	case sum.Failed > 0:
		status = "failed"
	case runErr != nil:
		status = "interrupted"
	}
	defer r.stages.since(StageWrite, time.Now())
	man.StageSeconds = r.stages.Seconds()
	man.Memory = r.memoryRecord()
	man.Record(status)
	if err := man.Write(r.OutDir); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// describe loads every dataset of the study (once, shared with the
// plans) before any unit runs, and returns the checksum each is identified
// by and its manifest record, with the rows each of the protocols uses:
// the checksums are part of every unit's identity.
func (c *planCache) describe(ctx context.Context, names, protocols []string) (map[string]string, []manifest.Dataset, error) {
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
		sum := datasets.Identity(d)
		checksums[name] = sum
		path := d.Path
		if path == "" {
			path = name
		}
		rec := manifest.Dataset{Name: name, Path: path, NormalizedSHA256: sum, Rows: d.Rows(),
			Classes: append([]string(nil), d.Classes...), ClassCounts: classCounts(d.Y, len(d.Classes)),
			Features: len(d.Inputs), MissingRows: len(d.MissingRows())}
		for j, n := range d.MissingByColumn() {
			if n > 0 {
				rec.Missing = append(rec.Missing, manifest.ColumnMissing{Column: d.Inputs[j].Name, Cells: n})
			}
		}
		for _, a := range d.Inputs {
			if a.Nominal() {
				rec.NominalFeatures++
			}
		}
		for _, p := range protocols {
			plan, err := c.get(ctx, p, name)
			if err != nil {
				return nil, nil, err
			}
			use, err := datasetUse(d, plan, c.opts)
			if err != nil {
				return nil, nil, err
			}
			rec.Use = append(rec.Use, use)
		}
		records = append(records, rec)
	}
	return checksums, records, nil
}

// classCounts counts the labels y per class.
func classCounts(y []int, classes int) []int {
	counts := make([]int, classes)
	for _, c := range y {
		if c >= 0 && c < classes {
			counts[c]++
		}
	}
	return counts
}

// datasetUse is the manifest's record of the rows plan uses of d. The
// rows are the file's complete rows when the plan dropped any, else all of
// them; a plan that disagrees with that count is an error, not a record.
func datasetUse(d *datasets.Dataset, plan *protocol.Plan, o protocol.Options) (manifest.DatasetUse, error) {
	y := d.Y
	if plan.Dropped > 0 {
		full, _ := d.CompleteRows()
		y = full.Y
	}
	if len(y) != plan.Rows || d.Rows()-plan.Dropped != plan.Rows {
		return manifest.DatasetUse{}, fmt.Errorf("%s protocol: plan of %s uses %d rows and drops %d of the file's %d (%d complete): the record of the rows used would be wrong",
			plan.Protocol, d.Name, plan.Rows, plan.Dropped, d.Rows(), d.Rows()-len(d.MissingRows()))
	}
	return manifest.DatasetUse{Protocol: plan.Protocol, Policy: o.MissingPolicy(), RowsUsed: plan.Rows, RowsDropped: plan.Dropped,
		CellsImputed: plan.Imputed, ClassCounts: classCounts(y, len(d.Classes))}, nil
}

// DropWarning is the warning a run gives for a dataset whose protocols
// drop rows with a missing input ("" when none does): "hepatitis: 75 of
// 155 rows dropped (missing values in 15 columns)".
func DropWarning(d manifest.Dataset) string {
	dropped := 0
	for _, u := range d.Use {
		dropped = max(dropped, u.RowsDropped)
	}
	if dropped == 0 {
		return ""
	}
	cols := "1 column"
	if len(d.Missing) != 1 {
		cols = fmt.Sprintf("%d columns", len(d.Missing))
	}
	return fmt.Sprintf("%s: %d of %d rows dropped (missing values in %s)", d.Name, dropped, d.Rows, cols)
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

// execute runs the pending units on a worker pool sharing one budget of
// -j threads (threads.go), appending each unit's rows to the results file
// as it finishes, and canonicalises the file.
func (r *Runner) execute(ctx context.Context, s study.Study, ms []study.ResolvedMethod, plans *planCache, path string,
	pending []study.Unit, sum Summary, keepArtifacts bool) (Summary, error) {
	open := r.openResults
	if open == nil {
		open = outdir.OpenResultsFile
	}
	f, err := outdir.OpenAppender(path, open)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	arts, err := r.openArtifacts(ctx, s, plans, keepArtifacts)
	if err != nil {
		return sum, err
	}
	defer arts.close()

	defer tightGC()()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Deferred after cancel, so it runs before it: once every unit has
	// returned, whether the run finished, failed or was interrupted, what
	// the methods keep running (external workers) ends before Run returns,
	// within its grace period, rather than outliving the process.
	defer releaseMethods(ms)

	r.budget = par.NewBudget(r.threads())
	ex := &executor{ctx: ctx, stages: &r.stages, artifacts: arts.header(), budget: r.budget}
	pool := &unitPool{ctx: ctx, budget: r.budget, admit: r.admission(), ex: ex, s: s, ms: ms, plans: plans, threaded: threadedMethods(ms)}
	order := largestFirst(pending, pool.trainingCells)
	if r.Progress != nil {
		var work int64
		for _, o := range order {
			work += o.cells
		}
		r.Progress.Start(len(order), work)
	}
	pool.t0 = time.Now()
	writeErr := r.collect(pool.start(order), cancel, arts, f, &sum)
	if r.Progress != nil {
		r.Progress.Finish()
	}
	if writeErr != nil {
		return sum, writeErr
	}
	if err := r.finishResults(f, path, arts); err != nil {
		return sum, err
	}
	sort.Strings(sum.Errors)
	return sum, runError(ctx, sum, len(pending))
}

// runError is the error of a run that executed pending units: the
// interruption when no unit failed and some did not run, else the count of
// failed units and the first of their errors (sorted).
func runError(ctx context.Context, sum Summary, pending int) error {
	if ctx.Err() != nil && sum.Failed == 0 && pending > sum.Ran {
		return ctx.Err()
	}
	if sum.Failed > 0 {
		return fmt.Errorf("%d of %d units failed; first: %s", sum.Failed, pending, sum.Errors[0])
	}
	return nil
}

// collect writes each unit's rows as its result arrives and counts it in
// sum; a failed unit stops the run under FailFast. A write error stops
// it: no further unit starts, the units in flight are cancelled (an
// external command is killed) and awaited, so that they clean up (their
// temporary directories) before the process exits; their rows are dropped
// and the error is returned.
func (r *Runner) collect(out <-chan unitResult, cancel func(), arts *artifactFiles, f *outdir.Appender, sum *Summary) error {
	for res := range out {
		if res.err != nil {
			if !errors.Is(res.err, context.Canceled) {
				sum.Failed++
				sum.Errors = append(sum.Errors, res.err.Error())
				if r.FailFast {
					cancel()
				}
			}
		} else if err := r.writeUnitTimed(arts, f, res.rows, res.arts); err != nil {
			cancel()
			for range out {
			}
			return err
		} else {
			sum.Ran++
			if r.afterUnit != nil {
				r.afterUnit(sum.Ran)
			}
		}
		if errors.Is(res.err, context.Canceled) { // an interrupted unit is neither done nor failed
			continue
		}
		if r.Progress != nil {
			r.Progress.Done(res.u, res.time.Cells, res.err)
		}
		if r.UnitTimes != nil && res.ran {
			r.UnitTimes(res.time)
		}
	}
	return nil
}

// finishResults closes the results file, rewrites it in canonical order
// and completes the artifacts.
func (r *Runner) finishResults(f *outdir.Appender, path string, arts *artifactFiles) error {
	if err := f.Close(); err != nil {
		return err
	}
	t0 := time.Now()
	err := Canonicalize(path)
	r.stages.since(StageWrite, t0)
	if err != nil {
		return &outdir.WriteError{Path: path, Err: fmt.Errorf("rewriting it in canonical order: %w", err)}
	}
	return arts.finish()
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
func resume(path string, existing outdir.Existing, todo []study.Unit) (map[string]bool, error) {
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
		if c.opts.Missing == protocol.MissingError {
			if err := d.MissingError(); err != nil {
				return nil, err
			}
		}
		if err := checkClasses(d, l.Folds, c.opts.Missing == protocol.MissingImpute); err != nil {
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

// releaseMethods calls the Release of every method that has one, once
// each, concurrently (each may wait out a worker's grace period).
func releaseMethods(ms []study.ResolvedMethod) {
	var wg sync.WaitGroup
	seen := map[*learn.Spec]bool{}
	for _, m := range ms {
		if m.Method == nil || m.Method.Release == nil || seen[m.Method] {
			continue
		}
		seen[m.Method] = true
		wg.Add(1)
		go func() { defer wg.Done(); m.Method.Release() }()
	}
	wg.Wait()
}
