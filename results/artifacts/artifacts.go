package artifacts

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/results"
)

// Store appends the units' artifacts (PredictionsFile, ModelsFile) to
// an output directory: one gzip member per unit and file, each written in
// one write, so that the files hold whole units only. It keeps an index of
// the members (unit key, byte span), so that Finish can order them by key
// without decompressing anything.
type Store struct {
	preds, models *os.File
	header        []string
	dir           string
	// index[0] indexes the predictions (after the header member),
	// index[1] the models.
	index [2][]span
}

// span is one unit's member in a file.
type span struct {
	key        string
	start, end int64
}

// Open opens the artifact files of dir for appending, creating
// them (the predictions file with its header member, whose score columns
// are scoreClasses) when absent. A torn tail left by a crash is cut back
// to the last whole member; cut reports the bytes removed. An existing
// predictions file with another header is an error (another study's
// directory).
func Open(dir string, scoreClasses []string) (a *Store, cut int64, err error) {
	header, err := PredictionsHeader(scoreClasses)
	if err != nil {
		return nil, 0, err
	}
	a = &Store{header: header, dir: dir}
	defer func() {
		if err != nil {
			a.Close()
			a = nil
		}
	}()
	files := []**os.File{&a.preds, &a.models}
	for i, name := range []string{PredictionsFile, ModelsFile} {
		n, err := a.open(i, name, files[i])
		cut += n
		if err != nil {
			return a, cut, err
		}
	}
	return a, cut, nil
}

// open opens artifact file i (name) into *file, cuts its torn tail (cut:
// the bytes cut) and indexes its members; a predictions file without
// members gets its header.
func (a *Store) open(i int, name string, file **os.File) (cut int64, err error) {
	path := filepath.Join(a.dir, name)
	f, err := safefile.OpenWrite(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return 0, err
	}
	*file = f
	data, err := safefile.ReadAll(f, path, safefile.ResultsCap)
	if err != nil {
		return 0, err
	}
	members, torn, err := WholeMembers(data)
	if err != nil {
		return 0, fmt.Errorf("results: %s: %w", path, err)
	}
	if torn {
		end := lastEnd(members)
		if err := f.Truncate(end); err != nil {
			return 0, fmt.Errorf("results: cutting the torn tail of %s: %w", path, err)
		}
		cut = int64(len(data)) - end
	}
	if err := a.indexMembers(i, name, path, members); err != nil {
		return cut, err
	}
	if name == PredictionsFile && len(members) == 0 {
		member, err := PredictionsHeaderMember(a.header)
		if err != nil {
			return cut, err
		}
		if err := appendMember(f, member); err != nil {
			return cut, err
		}
	}
	return cut, nil
}

// indexMembers records the unit of each member of artifact file i, after
// checking a predictions file's header against the study's.
func (a *Store) indexMembers(i int, name, path string, members []Member) error {
	for k, m := range members {
		if name == PredictionsFile && k == 0 {
			rows, err := readCSV(m.Data)
			if err != nil || len(rows) != 1 {
				return fmt.Errorf("results: %s: the first member is not the header line", path)
			}
			if got := strings.Join(rows[0], ","); got != strings.Join(a.header, ",") {
				return fmt.Errorf("results: %s has columns %q, this study writes %q", path, got, strings.Join(a.header, ","))
			}
			continue
		}
		key, err := memberKey(name, m.Data)
		if err != nil {
			return fmt.Errorf("results: %s member %d: %v", path, k, err)
		}
		a.index[i] = append(a.index[i], span{key, m.Start, m.End})
	}
	return nil
}

// Header returns the predictions file's columns.
func (a *Store) Header() []string { return a.header }

// Append writes one unit's artifacts: its models, then its predictions,
// each file in one write. When the second write fails the first file is
// cut back too, so that both files end with the same unit.
func (a *Store) Append(sets []PredictionSet, models []ModelRecord) error {
	if len(sets) == 0 || len(models) == 0 {
		return fmt.Errorf("results: a unit needs predictions and models (%d and %d given)", len(sets), len(models))
	}
	e := NewUnitEncoder(a.header)
	defer e.Release()
	for _, p := range sets {
		if err := e.AddSet(p); err != nil {
			return err
		}
	}
	for _, m := range models {
		if err := e.AddModel(m); err != nil {
			return err
		}
	}
	return a.AppendUnit(e)
}

// AppendUnit writes the unit e encoded, as Append does.
func (a *Store) AppendUnit(e *UnitEncoder) error {
	key := e.Key()
	pm, mm, err := e.Members()
	if err != nil {
		return err
	}
	mst, err := a.models.Stat()
	if err != nil {
		return err
	}
	pst, err := a.preds.Stat()
	if err != nil {
		return err
	}
	if err := appendMember(a.models, mm); err != nil {
		return fmt.Errorf("results: writing %s: %w", ModelsFile, err)
	}
	if err := appendMember(a.preds, pm); err != nil {
		if terr := a.models.Truncate(mst.Size()); terr != nil {
			return fmt.Errorf("results: writing %s: %w (and cutting %s back failed: %v)", PredictionsFile, err, ModelsFile, terr)
		}
		return fmt.Errorf("results: writing %s: %w", PredictionsFile, err)
	}
	a.index[0] = append(a.index[0], span{key, pst.Size(), pst.Size() + int64(len(pm))})
	a.index[1] = append(a.index[1], span{key, mst.Size(), mst.Size() + int64(len(mm))})
	return nil
}

// Finish closes the files and rewrites each with its unit members in key
// order, as Sort does but from the index, without decompressing:
// the order in which workers finished does not show.
func (a *Store) Finish() error {
	if err := a.Close(); err != nil {
		return err
	}
	for i, name := range []string{PredictionsFile, ModelsFile} {
		idx := a.index[i]
		less := func(x, y int) bool { return idx[x].key < idx[y].key }
		if len(idx) == 0 || sort.SliceIsSorted(idx, less) {
			continue
		}
		path := filepath.Join(a.dir, name)
		// Copied member by member from the file, not read whole: a study
		// on large data writes tens of megabytes of models.
		src, err := safefile.OpenNoFollow(path, safefile.ResultsCap)
		if err != nil {
			return err
		}
		st, err := src.Stat()
		if err != nil {
			src.Close()
			return err
		}
		head := idx[0].start
		for _, s := range idx {
			head = min(head, s.start) // the header member precedes every unit
		}
		sort.SliceStable(idx, less)
		err = atomicfile.Write(path, func(w io.Writer) error {
			n, err := io.Copy(w, io.NewSectionReader(src, 0, head))
			for _, s := range idx {
				if err != nil {
					return err
				}
				var m int64
				m, err = io.Copy(w, io.NewSectionReader(src, s.start, s.end-s.start))
				n += m
			}
			if err == nil && n != st.Size() {
				err = fmt.Errorf("results: %s: the member index covers %d of %d bytes", path, n, st.Size())
			}
			return err
		})
		src.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// Sync flushes both files to stable storage.
func (a *Store) Sync() error {
	return errors.Join(a.preds.Sync(), a.models.Sync())
}

// Close closes the files (again: a no-op).
func (a *Store) Close() error {
	var errs []error
	for _, f := range []**os.File{&a.preds, &a.models} {
		if *f != nil {
			errs = append(errs, (*f).Close())
			*f = nil
		}
	}
	return errors.Join(errs...)
}

// memberKey returns the unit key of a member of the named file: the first
// field of its first line.
func memberKey(name string, data []byte) (string, error) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if name == ModelsFile {
		var r struct {
			Key string `json:"key"`
		}
		if err := json.Unmarshal(line, &r); err != nil || r.Key == "" {
			return "", fmt.Errorf("a member without a key")
		}
		return r.Key, nil
	}
	f, err := csv.NewReader(bytes.NewReader(line)).Read()
	if err != nil || len(f) == 0 || f[0] == "" {
		return "", fmt.Errorf("a member without a key")
	}
	return f[0], nil
}

// WholeUnits returns the keys of the units whose member is whole in both
// artifact files of dir: a unit missing from either (its member torn off
// by an interrupted copy, or a file removed) has no artifacts a reader can
// check its rows against. A missing file counts as holding no unit.
func WholeUnits(dir string) (map[string]bool, error) {
	var sets [2]map[string]bool
	for i, name := range []string{PredictionsFile, ModelsFile} {
		sets[i] = map[string]bool{}
		path := filepath.Join(dir, name)
		_, members, _, err := readMembers(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for k, m := range members {
			if name == PredictionsFile && k == 0 {
				continue // the header
			}
			key, err := memberKey(name, m.Data)
			if err != nil {
				return nil, fmt.Errorf("results: %s member %d: %v", path, k, err)
			}
			sets[i][key] = true
		}
	}
	both := map[string]bool{}
	for k := range sets[0] {
		if sets[1][k] {
			both[k] = true
		}
	}
	return both, nil
}

// RetainUnits rewrites the artifact files of dir keeping only the members
// of the units keep accepts (and the predictions header), dropping a torn
// tail: a resumed run calls it with the units results.csv holds, so that
// the artifacts of a unit whose rows were never written (the run died
// between the two) are written again exactly once. It returns the number
// of unit members dropped. Absent files are left absent.
func RetainUnits(dir string, keep func(key string) bool) (dropped int, err error) {
	for _, name := range []string{PredictionsFile, ModelsFile} {
		path := filepath.Join(dir, name)
		data, members, torn, err := readMembers(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return dropped, err
		}
		var out bytes.Buffer
		changed := torn
		for i, m := range members {
			if name == PredictionsFile && i == 0 {
				out.Write(data[m.Start:m.End])
				continue
			}
			key, err := memberKey(name, m.Data)
			if err != nil {
				return dropped, fmt.Errorf("results: %s member %d: %v", path, i, err)
			}
			if !keep(key) {
				changed = true
				dropped++
				continue
			}
			out.Write(data[m.Start:m.End])
		}
		if changed {
			if err := atomicfile.WriteFile(path, out.Bytes()); err != nil {
				return dropped, err
			}
		}
	}
	return dropped, nil
}

// UnitConfig identifies one recorded configuration of one unit.
type UnitConfig struct {
	Key         string
	ConfigIndex int
}

// Derived is what the artifacts say of one recorded configuration: its
// test rows, how many were predicted right, and its rules (-1: unknown, a
// model without rules text).
type Derived struct {
	NTest, Correct, Rules int
	// BalancedAccuracy is the mean recall over the classes of the
	// predictions' true labels (valid with HasPredictions).
	BalancedAccuracy float64
	// Leaves is the model's rule count for a model a Go learner described
	// (one rule per leaf, and Leaves = Rules for rule lists: learn's
	// Complexity contract, which learntest holds every learner to); -1
	// when unknown (an external method's model).
	Leaves int
	// HasModel and HasPredictions report which artifact held it.
	HasModel, HasPredictions bool

	tallies []classTally // per true label: rows and rows predicted right
}

// classTally counts one true label's rows of a configuration.
type classTally struct {
	label  string
	n, hit int
}

// Derive re-derives n_test and correct (from the predictions) and rules
// (from the models) per recorded configuration. A test row recorded twice
// for one configuration, or a configuration recorded twice in the models,
// is an error (a unit whose artifacts were appended twice).
func Derive(p Predictions, m Models) (map[UnitConfig]Derived, error) {
	out := map[UnitConfig]Derived{}
	if err := derivePredictions(p.Rows, out); err != nil {
		return nil, err
	}
	for uc, d := range out {
		if d.tallies != nil {
			d.tallies = nil // counted; the map keeps the numbers only
			out[uc] = d
		}
	}
	if err := deriveModels(m.Records, out); err != nil {
		return nil, err
	}
	return out, nil
}

// derivePredictions counts the predictions' rows into out. A unit's rows
// are contiguous (one member each), so duplicates are looked for within
// the unit, and a unit's key seen again after other units is a unit
// recorded twice: the memory stays that of one unit, not of every row of
// a study.
func derivePredictions(rows []PredictionRow, out map[UnitConfig]Derived) error {
	units := map[string]bool{}
	for start := 0; start < len(rows); {
		key := rows[start].Key
		if units[key] {
			return fmt.Errorf("results: %s: %s recorded twice", PredictionsFile, key)
		}
		units[key] = true
		end := start + 1
		for end < len(rows) && rows[end].Key == key {
			end++
		}
		unit := rows[start:end]
		if err := duplicateRow(unit); err != nil {
			return err
		}
		countUnit(key, unit, out)
		start = end
	}
	return nil
}

// countUnit adds the rows of one unit to out. Within a unit, rows come in
// runs of one configuration (one prediction set each); a unit whose runs
// are of distinct configurations, each in increasing row order (as
// written), holds no row twice, and its counts are added run by run. Any
// other unit is checked row by row (duplicateRow), which finds the same
// first duplicate as always.
func countUnit(key string, unit []PredictionRow, out map[UnitConfig]Derived) {
	for i := 0; i < len(unit); {
		j, correct := i, 0
		for ; j < len(unit) && unit[j].ConfigIndex == unit[i].ConfigIndex; j++ {
			if unit[j].Correct() {
				correct++
			}
		}
		uc := UnitConfig{key, unit[i].ConfigIndex}
		d := out[uc]
		d.HasPredictions = true
		d.NTest += j - i
		d.Correct += correct
		d.tallies = tallyClasses(d.tallies, unit[i:j])
		d.BalancedAccuracy = balancedAccuracy(d.tallies)
		d.Leaves = -1
		out[uc] = d
		i = j
	}
}

// deriveModels adds each model record's rules and leaves to out.
func deriveModels(recs []ModelRecord, out map[UnitConfig]Derived) error {
	for _, rec := range recs {
		uc := UnitConfig{rec.Key, rec.ConfigIndex}
		d := out[uc]
		if d.HasModel {
			return fmt.Errorf("results: %s: %s config %d recorded twice", ModelsFile, rec.Key, rec.ConfigIndex)
		}
		if rec.ReadableRules != nil && len(rec.ReadableRules) != len(rec.Rules) {
			// The views show readable rules in place of the rules: one
			// more or less would shift every rule after it.
			return fmt.Errorf("results: %s: %s config %d holds %d readable rules for %d rules", ModelsFile, rec.Key, rec.ConfigIndex,
				len(rec.ReadableRules), len(rec.Rules))
		}
		if !d.HasPredictions {
			d.Leaves = -1
		}
		d.HasModel = true
		d.Rules = len(rec.Rules)
		if rec.Rules == nil {
			d.Rules = -1
		}
		if rec.Kind != "" && rec.Rules != nil {
			d.Leaves = len(rec.Rules)
		}
		out[uc] = d
	}
	return nil
}

// tallyClasses adds rows to the per-label counts ts.
func tallyClasses(ts []classTally, rows []PredictionRow) []classTally {
	for _, r := range rows {
		k := 0
		for k < len(ts) && ts[k].label != r.YTrue {
			k++
		}
		if k == len(ts) {
			ts = append(ts, classTally{label: r.YTrue})
		}
		ts[k].n++
		if r.Correct() {
			ts[k].hit++
		}
	}
	return ts
}

// balancedAccuracy is learn.BalancedAccuracy from per-label counts: the
// mean over the true labels present of the share predicted right, the
// labels taken in order of first appearance (the runner sums them in the
// schema's class order; the two sums differ by rounding only).
func balancedAccuracy(ts []classTally) float64 {
	if len(ts) == 0 {
		return 0
	}
	sum := 0.0
	for _, t := range ts {
		sum += float64(t.hit) / float64(t.n)
	}
	return sum / float64(len(ts))
}

// BalancedTolerance is how far a stored balanced_accuracy may lie from the
// one re-derived from the predictions: the rounding of a sum of per-class
// recalls taken in another order, far below any edit that changes a
// printed digit.
const BalancedTolerance = 1e-12

// duplicateRow returns the error for the first row of one unit's rows
// (contiguous) recorded twice for one configuration, or nil. Rows come
// in runs of one configuration (one prediction set each): when every run
// is of another configuration, each is checked against a bit set of its
// row indices; otherwise (or with row indices too large for a bit set)
// the unit is checked against a set of (configuration, row) pairs. Both
// find the same first duplicate in row order.
func duplicateRow(unit []PredictionRow) error {
	dup := func(r PredictionRow) error {
		return fmt.Errorf("results: %s: row %d of %s config %d recorded twice", PredictionsFile, r.Row, r.Key, r.ConfigIndex)
	}
	runs := map[int]bool{}
	maxRow := 0
	distinct := true
	for i, r := range unit {
		if i == 0 || r.ConfigIndex != unit[i-1].ConfigIndex {
			distinct = distinct && !runs[r.ConfigIndex]
			runs[r.ConfigIndex] = true
		}
		maxRow = max(maxRow, r.Row)
	}
	if distinct && maxRow < 1<<24 {
		bits := make([]uint64, maxRow/64+1)
		for i, r := range unit {
			if i > 0 && r.ConfigIndex != unit[i-1].ConfigIndex {
				clear(bits)
			}
			w, b := r.Row/64, uint64(1)<<(r.Row%64)
			if bits[w]&b != 0 {
				return dup(r)
			}
			bits[w] |= b
		}
		return nil
	}
	type rowID struct{ config, row int }
	seen := map[rowID]bool{}
	for _, r := range unit {
		id := rowID{r.ConfigIndex, r.Row}
		if seen[id] {
			return dup(r)
		}
		seen[id] = true
	}
	return nil
}

// CrossCheck holds results.csv rows to the artifacts: every row's
// (key, config_index) has predictions with its n_test and correct and a
// model with its rules, and every configuration the artifacts record has
// a row. It returns one error per disagreement (at most limit; 0 = all).
func CrossCheck(recs []results.Record, derived map[UnitConfig]Derived, limit int) []error {
	var errs []error
	add := func(err error) bool {
		errs = append(errs, err)
		return limit > 0 && len(errs) >= limit
	}
	rows := map[UnitConfig]bool{}
	hasRows := map[string]bool{}
	for _, r := range recs {
		uc := UnitConfig{r.Key, r.ConfigIndex}
		rows[uc] = true
		hasRows[r.Key] = true
		d, ok := derived[uc]
		if err := checkRecord(r, d, ok); err != nil && add(err) {
			return errs
		}
	}
	// A unit with artifacts and no row at all is one in flight when its
	// run stopped (artifacts are written first): resume drops it, and
	// readers leave it out (InFlight). A configuration missing from a
	// unit that has rows is a disagreement.
	var extra []UnitConfig
	for uc := range derived {
		if !rows[uc] && hasRows[uc.Key] {
			extra = append(extra, uc)
		}
	}
	sort.Slice(extra, func(i, j int) bool {
		if extra[i].Key != extra[j].Key {
			return extra[i].Key < extra[j].Key
		}
		return extra[i].ConfigIndex < extra[j].ConfigIndex
	})
	for _, uc := range extra {
		if add(fmt.Errorf("%s config %d: in the artifacts but not in results.csv", uc.Key, uc.ConfigIndex)) {
			return errs
		}
	}
	return errs
}

// checkRecord compares one row of results.csv with what its artifacts
// say (d; ok: they say anything), and returns the first disagreement.
func checkRecord(r results.Record, d Derived, ok bool) error {
	switch {
	case !ok || !d.HasPredictions:
		return fmt.Errorf("%s config %d: no predictions in %s", r.Key, r.ConfigIndex, PredictionsFile)
	case !d.HasModel:
		return fmt.Errorf("%s config %d: no model in %s", r.Key, r.ConfigIndex, ModelsFile)
	case d.NTest != r.NTest || d.Correct != r.Correct:
		return fmt.Errorf("%s config %d: results.csv says %d of %d correct, the predictions %d of %d",
			r.Key, r.ConfigIndex, r.Correct, r.NTest, d.Correct, d.NTest)
	case d.Rules >= 0 && d.Rules != r.Rules:
		return fmt.Errorf("%s config %d: results.csv says %d rules, the model records %d", r.Key, r.ConfigIndex, r.Rules, d.Rules)
	case math.Abs(d.BalancedAccuracy-r.BalancedAccuracy) > BalancedTolerance:
		return fmt.Errorf("%s config %d: results.csv says balanced_accuracy %s, the predictions %s",
			r.Key, r.ConfigIndex, strconv.FormatFloat(r.BalancedAccuracy, 'g', -1, 64), strconv.FormatFloat(d.BalancedAccuracy, 'g', -1, 64))
	case d.Leaves >= 0 && d.Leaves != r.Leaves:
		return fmt.Errorf("%s config %d: results.csv says %d leaves, the model's %d rules make %d (one rule per leaf)", r.Key, r.ConfigIndex, r.Leaves, d.Leaves, d.Leaves)
	}
	return nil
}

// Read reads and cross-checks the artifacts of an output
// directory against its results.csv rows. present is false (and nothing
// else is checked) when the directory has neither artifact file: a run
// with --no-artifacts, which callers must report as such. One file without
// the other, a damaged file, or any disagreement is an error. Each model's
// JSON is checked as it is read but not kept (Model is nil): the readers of
// a directory use its rules and partitions, and on large data the models
// (deep trees) were most of what a report held. ReadModels keeps it.
func Read(dir string, recs []results.Record) (p Predictions, m Models, present bool, err error) {
	pdata, perr := safefile.ReadFileNoFollow(filepath.Join(dir, PredictionsFile), safefile.ResultsCap)
	mdata, merr := safefile.ReadFileNoFollow(filepath.Join(dir, ModelsFile), safefile.ResultsCap)
	switch {
	case errors.Is(perr, os.ErrNotExist) && errors.Is(merr, os.ErrNotExist):
		return p, m, false, nil
	case perr != nil:
		return p, m, true, perr
	case merr != nil:
		return p, m, true, merr
	}
	defer pauseGC(len(pdata) + len(mdata))()
	// The two files are decoded at once (each on its own workers); a
	// damaged predictions file is reported before a damaged models file,
	// as when they were read one after the other.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		m, _, merr = readModels(mdata, false, readWorkers(), false)
	}()
	p, _, perr = ReadPredictions(pdata, false)
	wg.Wait()
	if perr != nil {
		return p, m, true, fmt.Errorf("%s: %w", dir, perr)
	}
	if merr != nil {
		return p, m, true, fmt.Errorf("%s: %w", dir, merr)
	}
	derived, err := Derive(p, m)
	if err != nil {
		return p, m, true, fmt.Errorf("%s: %w", dir, err)
	}
	if errs := CrossCheck(recs, derived, 5); len(errs) > 0 {
		return p, m, true, fmt.Errorf("%s: the artifacts disagree with results.csv: %w", dir, errors.Join(errs...))
	}
	p, m = dropInFlight(p, m, recs)
	return p, m, true, nil
}

// dropInFlight leaves out the artifacts of units without any row in recs
// (units in flight when a run stopped: their artifacts were written, their
// rows not), so readers see the units results.csv holds.
func dropInFlight(p Predictions, m Models, recs []results.Record) (Predictions, Models) {
	keys := map[string]bool{}
	for _, r := range recs {
		keys[r.Key] = true
	}
	drop := false
	for _, u := range p.Units {
		drop = drop || !keys[u]
	}
	for _, u := range m.Units {
		drop = drop || !keys[u]
	}
	if !drop {
		return p, m
	}
	rows := p.Rows[:0:0]
	for _, r := range p.Rows {
		if keys[r.Key] {
			rows = append(rows, r)
		}
	}
	p.Rows = rows
	recsOut := m.Records[:0:0]
	for _, r := range m.Records {
		if keys[r.Key] {
			recsOut = append(recsOut, r)
		}
	}
	m.Records = recsOut
	p.Units, m.Units = keepKeys(p.Units, keys), keepKeys(m.Units, keys)
	return p, m
}

func keepKeys(units []string, keys map[string]bool) []string {
	var out []string
	for _, u := range units {
		if keys[u] {
			out = append(out, u)
		}
	}
	return out
}

// Sort rewrites the artifact files of dir with their unit members
// in the order of their keys (the predictions header first), so that the
// files do not depend on the order in which workers finished units: a run
// with any number of workers, or resumed after a crash, gives the same
// bytes. Absent files are left absent; a damaged file is an error.
func Sort(dir string) error {
	for _, name := range []string{PredictionsFile, ModelsFile} {
		path := filepath.Join(dir, name)
		data, members, torn, err := readMembers(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if torn {
			return fmt.Errorf("results: %s is damaged after byte %d", path, lastEnd(members))
		}
		type keyed struct {
			key string
			m   Member
		}
		var units []keyed
		var out bytes.Buffer
		for i, m := range members {
			if name == PredictionsFile && i == 0 {
				out.Write(data[m.Start:m.End])
				continue
			}
			key, err := memberKey(name, m.Data)
			if err != nil {
				return fmt.Errorf("results: %s member %d: %v", path, i, err)
			}
			units = append(units, keyed{key, m})
		}
		if sort.SliceIsSorted(units, func(i, j int) bool { return units[i].key < units[j].key }) {
			continue
		}
		sort.SliceStable(units, func(i, j int) bool { return units[i].key < units[j].key })
		for _, u := range units {
			out.Write(data[u.m.Start:u.m.End])
		}
		if err := atomicfile.WriteFile(path, out.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// readMembers reads the artifact file at path (bounded, never through a
// link) and splits it into its whole members; torn says whether a torn
// tail follows them. An absent file gives an error that is
// os.ErrNotExist; a damaged one an error that names the file.
func readMembers(path string) (data []byte, members []Member, torn bool, err error) {
	data, err = safefile.ReadFileNoFollow(path, safefile.ResultsCap)
	if err != nil {
		return nil, nil, false, err
	}
	members, torn, err = WholeMembers(data)
	if err != nil {
		return nil, nil, false, fmt.Errorf("results: %s: %w", path, err)
	}
	return data, members, torn, nil
}

func lastEnd(members []Member) int64 {
	if len(members) == 0 {
		return 0
	}
	return members[len(members)-1].End
}

// Merge writes into dst the artifacts of the directories srcs
// (shards of one study): the members of every unit keep accepts (nil: all)
// once, ordered by key, so that merged shards hold the artifacts of a
// single run. It refuses sources that disagree: some with artifacts and
// some without, different predictions headers, damaged files, or one unit
// with different bytes in two sources (a unit found twice with equal bytes
// is kept once); nothing is written when it refuses. present is false
// when no source has artifacts; then nothing is written either.
func Merge(dst string, srcs []string, keep func(key string) bool) (present bool, err error) {
	with, err := shardsWithArtifacts(srcs)
	if err != nil {
		return true, err
	}
	if len(with) == 0 {
		return false, nil
	}
	var merged [2][]byte
	for fi, name := range []string{PredictionsFile, ModelsFile} {
		u := artifactUnion{name: name, keep: keep, units: map[string]shardUnit{}}
		for _, src := range with {
			if err := u.add(src); err != nil {
				return true, err
			}
		}
		merged[fi] = u.bytes()
	}
	for fi, name := range []string{PredictionsFile, ModelsFile} {
		if err := atomicfile.WriteFile(filepath.Join(dst, name), merged[fi]); err != nil {
			return true, err
		}
	}
	return true, nil
}

// shardsWithArtifacts returns the shards that hold both artifact files:
// all of them or none (an error names both sets otherwise), and none
// with one file without the other.
func shardsWithArtifacts(srcs []string) (with []string, err error) {
	var without []string
	for _, src := range srcs {
		_, perr := os.Stat(filepath.Join(src, PredictionsFile))
		_, merr := os.Stat(filepath.Join(src, ModelsFile))
		switch {
		case perr == nil && merr == nil:
			with = append(with, src)
		case errors.Is(perr, os.ErrNotExist) && errors.Is(merr, os.ErrNotExist):
			without = append(without, src)
		default:
			return nil, fmt.Errorf("results: %s holds one artifact file without the other", src)
		}
	}
	if len(with) > 0 && len(without) > 0 {
		return nil, fmt.Errorf("results: %s have artifacts, %s not: merge shards run alike (all with, or all with --no-artifacts)",
			strings.Join(with, ", "), strings.Join(without, ", "))
	}
	return with, nil
}

// shardUnit is one unit's member of an artifact file and the shard it
// came from.
type shardUnit struct {
	src  string
	data []byte
}

// artifactUnion gathers one artifact file (name) of several shards: one
// header, then each unit that keep keeps once, refusing a unit whose
// members differ between shards.
type artifactUnion struct {
	name      string
	keep      func(key string) bool
	units     map[string]shardUnit
	header    []byte
	headerSrc string
}

// add reads the file of shard src, which must be whole.
func (u *artifactUnion) add(src string) error {
	path := filepath.Join(src, u.name)
	data, members, torn, err := readMembers(path)
	if err != nil {
		return err
	}
	if torn {
		return fmt.Errorf("results: %s is damaged after byte %d (a shard still running, or cut short)", path, lastEnd(members))
	}
	for i, m := range members {
		raw := data[m.Start:m.End]
		if u.name == PredictionsFile && i == 0 {
			if err := u.addHeader(src, raw); err != nil {
				return err
			}
			continue
		}
		key, err := memberKey(u.name, m.Data)
		if err != nil {
			return fmt.Errorf("results: %s member %d: %v", path, i, err)
		}
		if u.keep != nil && !u.keep(key) {
			continue
		}
		if prev, ok := u.units[key]; ok {
			if !bytes.Equal(prev.data, raw) {
				return fmt.Errorf("results: unit %s has different %s in %s and %s", key, u.name, prev.src, src)
			}
			continue
		}
		u.units[key] = shardUnit{src, raw}
	}
	return nil
}

// addHeader keeps the first shard's header member and refuses another.
func (u *artifactUnion) addHeader(src string, raw []byte) error {
	if u.header == nil {
		u.header, u.headerSrc = raw, src
		return nil
	}
	if !bytes.Equal(u.header, raw) {
		return fmt.Errorf("results: %s and %s have different prediction columns", u.headerSrc, src)
	}
	return nil
}

// bytes is the merged file: the header, then the units by key.
func (u *artifactUnion) bytes() []byte {
	keys := make([]string, 0, len(u.units))
	for k := range u.units {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out bytes.Buffer
	out.Write(u.header)
	for _, k := range keys {
		out.Write(u.units[k].data)
	}
	return out.Bytes()
}
