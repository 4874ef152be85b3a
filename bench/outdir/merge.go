package outdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/results"
)

// MergeOptions tune Merge.
type MergeOptions struct {
	// AllowPartial writes the merge even when units are missing, marked as
	// partial in results.csv (a leading comment line), the manifest and
	// the report.
	AllowPartial bool
	// Commit, when set, is called once everything is checked, before the
	// first write; its error stops the merge with nothing written (an
	// interrupted merge returns the context's error here). The files are
	// written after it returns nil.
	Commit func() error
}

// MergeSummary tells what a merge found and wrote.
type MergeSummary struct {
	Inputs        int
	Rows          int
	ExpectedUnits int
	PresentUnits  int
	// Missing lists the missing units (protocol/dataset/label/rR/fF/sS) in
	// canonical order; MissingShards the shards "i/N" they belong to.
	Missing       []string
	MissingShards []string
	Partial       bool
	ResultsPath   string
	ManifestPath  string
}

// mergeInput is one shard output: its results file and the manifest beside
// it.
type mergeInput struct {
	path   string // results file
	man    *manifest.Manifest
	shards []study.Shard
}

// Merge combines the results of the shards of one study into out (an
// existing directory or a new path without the .csv extension gets
// results.csv; otherwise out is the results file) and writes a merged
// manifest beside it. It replaces only a regular file. Inputs are shard directories or results files with
// their manifest.json beside them.
//
// The shards' manifests say which study they belong to (its identity) and
// which shard i/N each ran; from them Merge knows every unit the merged
// results must hold. It refuses, naming the problem, inputs without a
// manifest, inputs of another study, shards of different shard counts,
// rows that are not units of the study, and rows of one unit that differ
// between inputs outside the timing columns; it refuses missing or
// incomplete units (naming them and their shards) unless AllowPartial.
// Nothing is written when it refuses.
func Merge(out string, inputs []string, o MergeOptions) (MergeSummary, error) {
	sum := MergeSummary{Inputs: len(inputs)}
	if len(inputs) == 0 {
		return sum, errors.New("no inputs")
	}
	if st, err := os.Stat(out); (err == nil && st.IsDir()) || (err != nil && !strings.EqualFold(filepath.Ext(out), ".csv")) {
		out = filepath.Join(out, results.FileName)
	}
	sum.ResultsPath = out
	sum.ManifestPath = filepath.Join(filepath.Dir(out), manifest.FileName)

	ownRows, release, locked, err := lockMergeTarget(out)
	if err != nil {
		return sum, err
	}
	defer release()
	ins, count, err := readMergeInputs(inputs)
	if err != nil {
		return sum, err
	}
	id := *ins[0].man.Identity
	sources, all, err := collectMergeRows(out, sum.ManifestPath, ownRows, ins, id)
	if err != nil {
		return sum, err
	}
	complete, err := completeUnits(id, all, ins, count, o, &sum)
	if err != nil {
		return sum, err
	}
	var keep []results.Record
	for _, rec := range all {
		if complete[rec.Key] {
			keep = append(keep, rec)
		}
	}
	results.Sort(keep)
	sum.Rows = len(keep)
	return sum, writeMerge(out, sources, ins, id, complete, keep, o, sum, locked)
}

// lockMergeTarget reads what the merge's output already holds and, when
// its directory exists, locks it for the whole merge (a run writing there
// would otherwise lose rows to it or overwrite it): the directory's own
// rows are one more input, so a merge into a directory of the same study
// never throws its finished units away. The target is checked before the
// lock is taken (a refused merge leaves no lock file in a directory that
// is not fgrtbench's) and again under it. release is never nil; locked
// says whether the lock was taken (writeMerge takes it otherwise).
func lockMergeTarget(out string) (own *mergeOutput, release func(), locked bool, err error) {
	release = func() {}
	if own, err = mergeTarget(out, false); err != nil {
		return nil, release, false, err
	}
	if st, err := os.Stat(filepath.Dir(out)); err == nil && st.IsDir() {
		unlock, err := Lock(filepath.Dir(out))
		if err != nil {
			return nil, release, false, err
		}
		if own, err = mergeTarget(out, true); err != nil {
			unlock()
			return nil, release, false, err
		}
		return own, unlock, true, nil
	}
	return own, release, false, nil
}

// readMergeInputs reads every input's manifest and checks that they are
// shards of one study; count is the study's shard count.
func readMergeInputs(inputs []string) (ins []mergeInput, count int, err error) {
	for _, in := range inputs {
		mi, err := readMergeInput(in)
		if err != nil {
			return nil, 0, err
		}
		ins = append(ins, mi)
	}
	for _, mi := range ins[1:] {
		if err := sameStudy(ins[0], mi); err != nil {
			return nil, 0, err
		}
	}
	count, err = shardCount(ins)
	return ins, count, err
}

// mergeRowID names one result row: a unit and a configuration.
type mergeRowID struct {
	key string
	ci  int
}

// collectMergeRows gathers the rows of every input and of the output's
// own results (when they belong to the same study): every row must be a
// unit of the study, and rows of one unit must agree across inputs.
// sources are the inputs the rows came from, the output's own included.
func collectMergeRows(out, manifestPath string, own *mergeOutput, ins []mergeInput, id identity.Study) (sources []mergeInput, all []results.Record, err error) {
	seen := map[mergeRowID]int{} // index into all
	from := map[mergeRowID]string{}
	sources = slices.Clone(ins)
	if own != nil {
		if own.man.Identity == nil || own.man.Identity.Hash != id.Hash {
			return nil, nil, fmt.Errorf("%s belongs to another study; merge into a new directory", manifestPath)
		}
		sources = append(sources, mergeInput{path: out})
	}
	for _, mi := range sources {
		recs := []results.Record(nil)
		if mi.path == out && own != nil {
			recs = own.recs
		} else if recs, err = results.ReadFile(mi.path); err != nil {
			return nil, nil, err
		}
		if err := CheckUnits(id, recs, mi.path); err != nil {
			return nil, nil, err
		}
		for _, rec := range recs {
			k := mergeRowID{rec.Key, rec.ConfigIndex}
			if at, ok := seen[k]; ok {
				if !results.SameOutsideTiming(all[at], rec) {
					return nil, nil, fmt.Errorf("unit %s config %d differs between %s and %s (%s); the inputs disagree, so neither can be trusted: re-run that unit",
						rec.Key, rec.ConfigIndex, from[k], mi.path, firstDifference(all[at], rec))
				}
				continue
			}
			seen[k] = len(all)
			from[k] = mi.path
			all = append(all, rec)
		}
	}
	return sources, all, nil
}

// completeUnits says which units of the study the rows complete, records
// the missing ones (and their shards) in sum, and refuses a partial merge
// unless o allows it.
func completeUnits(id identity.Study, all []results.Record, ins []mergeInput, count int, o MergeOptions, sum *MergeSummary) (map[string]bool, error) {
	if err := CheckSelected(id, all, "the merge's inputs"); err != nil {
		return nil, err
	}
	units := id.UnitList()
	missingShards := map[int]bool{}
	complete := make(map[string]bool, len(units))
	for _, u := range units {
		complete[u.Key] = true
	}
	for _, i := range Missing(id, all) {
		complete[units[i].Key] = false
		sum.Missing = append(sum.Missing, UnitName(id, units[i]))
		missingShards[i%count] = true
	}
	sum.ExpectedUnits, sum.PresentUnits = len(units), len(units)-len(sum.Missing)
	for _, i := range sortedInts(missingShards) {
		sum.MissingShards = append(sum.MissingShards, study.Shard{Index: i, Count: count}.String())
	}
	if len(sum.Missing) > 0 && !o.AllowPartial {
		verb := "are"
		if len(sum.Missing) == 1 {
			verb = "is"
		}
		return nil, fmt.Errorf("%d of the study's %d units %s missing%s, e.g. %s; merge every shard (re-run failed ones), or pass --allow-partial to write results marked as partial",
			len(sum.Missing), len(units), verb, shardNote(sum.MissingShards, ins, count), sum.Missing[0])
	}
	sum.Partial = len(sum.Missing) > 0
	return complete, nil
}

// writeMerge writes the merged study: its artifacts, results.csv (marked
// when partial) and the manifest, after checking that a manifest already
// there is of the same study and after o.Commit agrees.
func writeMerge(out string, sources, ins []mergeInput, id identity.Study, complete map[string]bool, keep []results.Record, o MergeOptions, sum MergeSummary, locked bool) error {
	outDir := filepath.Dir(out)
	prev, err := manifest.Read(outDir)
	if err == nil {
		if prev.Identity == nil || prev.Identity.Hash != id.Hash {
			return fmt.Errorf("%s belongs to another study; merge into a new directory", sum.ManifestPath)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%v; merge into a new directory", err)
	}
	if o.Commit != nil {
		if err := o.Commit(); err != nil {
			return err
		}
	}
	man := mergedManifest(prev, ins, id, sum)
	if !locked {
		// The directory did not exist when this merge began, so it holds
		// no lock; another merge or run may have made and written it
		// since (two merges into one new --out at once). Lock it now and
		// refuse if anything was written meanwhile: these rows do not
		// include it, and writing them would drop it.
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return err
		}
		release, err := Lock(outDir)
		if err != nil {
			return err
		}
		defer release()
		if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
			return &WrittenMeanwhile{Path: out}
		}
		if _, err := manifest.Read(outDir); !errors.Is(err, fs.ErrNotExist) {
			return &WrittenMeanwhile{Path: sum.ManifestPath}
		}
	}
	// sources: the directory's own units, kept in its results, keep their
	// artifacts too.
	if man.Artifacts, err = mergeArtifacts(outDir, sources, complete); err != nil {
		return err
	}
	var b bytes.Buffer
	if sum.Partial {
		fmt.Fprintf(&b, "%s %d of %d units (%d rows); missing shards %s; see %s\n", results.PartialMark,
			sum.PresentUnits, sum.ExpectedUnits, sum.Rows, strings.Join(sum.MissingShards, ", "), manifest.FileName)
	}
	if err := results.Write(&b, keep); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(out, b.Bytes()); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := man.Write(outDir); err != nil {
		return fmt.Errorf("writing %s: %w", sum.ManifestPath, err)
	}
	return nil
}

// WrittenMeanwhile refuses a merge whose new output directory another
// merge or run wrote while this one read its inputs.
type WrittenMeanwhile struct{ Path string }

func (e *WrittenMeanwhile) Error() string {
	return fmt.Sprintf("%s was written by another fgrtbench process while this merge read its inputs; nothing was merged by this one: run it again, and it merges with what is there", e.Path)
}

// mergeTarget is what a merge finds at its output path.
type mergeOutput struct {
	recs []results.Record
	man  *manifest.Manifest
}

// afterManifestRead is a test hook: it runs after mergeTarget's unlocked
// look found no manifest, before it looks at the lock.
var afterManifestRead = func() {}

// mergeTarget checks the file a merge would replace: nothing, or a results
// file with the manifest of its study beside it, whose rows it returns.
// Anything else (a file that is not a results file, results without a
// manifest, a link, a pipe) is refused in one line: fgrtbench replaces only
// what it can tell it wrote.
//
// Before the lock is taken (locked false), a results.csv without a manifest
// beside it may be another merge's or run's half-way state: it writes its
// results before its manifest, under the directory's lock. While another
// process holds that lock the target is refused as Busy, as stray
// artifacts are, not as a stranger's file. When the lock is free by the
// time it is looked at, the writer may have written its manifest and let
// go in between (under load the shared_results script met that), so the
// manifest is read once more. Whatever this unlocked look returns is
// read again under the lock before the merge uses it.
func mergeTarget(out string, locked bool) (*mergeOutput, error) {
	st, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		if _, err := manifest.Read(filepath.Dir(out)); errors.Is(err, fs.ErrNotExist) {
			return nil, StrayArtifacts(filepath.Dir(out))
		} else if err != nil {
			return nil, fmt.Errorf("%v; refusing to replace it: merge into a new directory", err)
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, safefile.CheckRegular(out, "replace")
	}
	recs, err := results.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("%s exists and is not a results file (%v); refusing to replace it: merge into a new path", out, err)
	}
	m, err := manifest.Read(filepath.Dir(out))
	if errors.Is(err, fs.ErrNotExist) {
		if !locked {
			afterManifestRead()
			if held, note := heldElsewhere(filepath.Join(filepath.Dir(out), LockFile)); held {
				return nil, &Busy{Dir: filepath.Dir(out), Holder: strings.TrimSpace(note)}
			}
			m, err = manifest.Read(filepath.Dir(out))
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s exists without a %s beside it, so whose results it holds is unknown; refusing to replace it: merge into a new directory", out, manifest.FileName)
	}
	if err == nil {
		err = m.Verify(filepath.Dir(out))
	}
	if err != nil {
		return nil, fmt.Errorf("%v; merge into a new directory", err)
	}
	return &mergeOutput{recs: recs, man: m}, nil
}

// readMergeInput finds the results file and manifest of one input.
func readMergeInput(in string) (mergeInput, error) {
	path := in
	if st, err := os.Stat(in); err == nil && st.IsDir() {
		path = filepath.Join(in, results.FileName)
	}
	dir := filepath.Dir(path)
	m, err := manifest.Read(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return mergeInput{}, fmt.Errorf("%s has no %s beside it, so which study and shard it holds is unknown; give the shard directories as the runs wrote them", path, manifest.FileName)
	}
	if err != nil {
		return mergeInput{}, err
	}
	if m.Identity == nil {
		return mergeInput{}, fmt.Errorf("%s records no study identity (written by an older fgrtbench); re-run that shard", filepath.Join(dir, manifest.FileName))
	}
	if err := m.Verify(dir); err != nil {
		return mergeInput{}, err
	}
	mi := mergeInput{path: path, man: m}
	seen := map[string]bool{}
	runs := m.History
	if len(runs) == 0 {
		runs = []manifest.Invocation{m.Current()}
	}
	for _, h := range runs {
		if seen[h.Shard] || h.Status == "merged" || h.Status == "merged-partial" {
			continue
		}
		seen[h.Shard] = true
		s := study.Shard{}
		if h.Shard != "all" && h.Shard != "" {
			if s, err = study.ParseShard(h.Shard); err != nil {
				return mergeInput{}, fmt.Errorf("%s: %v", filepath.Join(dir, manifest.FileName), err)
			}
		}
		mi.shards = append(mi.shards, s)
	}
	return mi, nil
}

// sameStudy refuses an input of another study than the first, saying what
// differs: the first group, in canonical order, where the two studies
// part.
func sameStudy(a, b mergeInput) error {
	ia, ib := *a.man.Identity, *b.man.Identity
	if ia.Hash == ib.Hash {
		return nil
	}
	return fmt.Errorf("%s is of another study than %s: %s; merge shards of one study only", b.path, a.path, studyDifference(ia, ib, a.path))
}

// studyDifference describes the first difference between two studies'
// groups, walking both in canonical order. Two groups at one position
// whose slots both exist only on their own side are the same group named
// differently (a dataset given as mine.csv in one study and ./mine.csv in
// the other), and the message names both names; a slot the other study
// has elsewhere means a group was added or dropped.
func studyDifference(a, b identity.Study, aPath string) string {
	inA, inB := slots(a), slots(b)
	for i := 0; i < max(len(a.Groups), len(b.Groups)); i++ {
		switch {
		case i >= len(b.Groups):
			return "it has no " + a.Groups[i].Slot()
		case i >= len(a.Groups):
			return fmt.Sprintf("it has %s, which %s has not", b.Groups[i].Slot(), aPath)
		}
		ga, gb := a.Groups[i], b.Groups[i]
		if ga.Hash == gb.Hash {
			continue
		}
		switch {
		case ga.Slot() == gb.Slot():
			stored, current := identity.Diff(ga, gb)
			return fmt.Sprintf("it has %s where %s has %s (%s)", current, aPath, stored, ga.Slot())
		case !inB[ga.Slot()] && !inA[gb.Slot()]:
			return renamed(ga, gb, aPath)
		case !inB[ga.Slot()]:
			return "it has no " + ga.Slot()
		default:
			return fmt.Sprintf("it has %s, which %s has not", gb.Slot(), aPath)
		}
	}
	return "a different set of units"
}

// renamed describes two groups at the same place of their studies whose
// protocol, dataset or label differ.
func renamed(a, b identity.Group, aPath string) string {
	var parts []string
	for _, f := range []struct{ what, x, y string }{
		{"protocol", a.Protocol, b.Protocol},
		{"dataset", a.Dataset, b.Dataset},
		{"method label", a.Label, b.Label},
	} {
		if f.x != f.y {
			parts = append(parts, fmt.Sprintf("%s %q where %s has %q", f.what, f.y, aPath, f.x))
		}
	}
	msg := "the studies differ: it names " + strings.Join(parts, " and ")
	if a.Dataset != b.Dataset && a.DatasetSHA256 == b.DatasetSHA256 {
		msg += " (the same data named differently: name the data file the same way in every shard)"
	}
	return msg
}

// slots returns the set of a study's protocol/dataset/label slots.
func slots(s identity.Study) map[string]bool {
	out := make(map[string]bool, len(s.Groups))
	for _, g := range s.Groups {
		out[g.Slot()] = true
	}
	return out
}

// shardCount returns the common shard count N of the inputs (1 when every
// input ran the whole study), refusing inputs split with different counts.
func shardCount(ins []mergeInput) (int, error) {
	count, where := 0, ""
	for _, mi := range ins {
		for _, s := range mi.shards {
			n := max(s.Count, 1)
			if s.All() {
				continue
			}
			if count != 0 && n != count {
				return 0, fmt.Errorf("%s ran shard %s but %s ran a shard of %d; shards of different splits do not add up: re-run with one --shard-count", mi.path, s, where, count)
			}
			count, where = n, mi.path
		}
	}
	return max(count, 1), nil
}

// shardNote describes the missing shards for the refusal message.
func shardNote(missing []string, ins []mergeInput, count int) string {
	if count <= 1 || len(missing) == 0 {
		return ""
	}
	present := map[string]bool{}
	for _, mi := range ins {
		for _, s := range mi.shards {
			present[s.String()] = true
		}
	}
	var absent, incomplete []string
	for _, s := range missing {
		if present[s] {
			incomplete = append(incomplete, s)
		} else {
			absent = append(absent, s)
		}
	}
	var parts []string
	if len(absent) > 0 {
		parts = append(parts, "no input holds shard "+strings.Join(absent, ", "))
	}
	if len(incomplete) > 0 {
		parts = append(parts, "shard "+strings.Join(incomplete, ", ")+" incomplete")
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// mergedManifest describes the merge: the study and its identity, the
// union of the inputs' datasets, every input's history, and the merge.
func mergedManifest(prev *manifest.Manifest, ins []mergeInput, id identity.Study, sum MergeSummary) *manifest.Manifest {
	first := ins[0].man
	m := manifest.New(first.Study, 0, "merged")
	m.Methods = first.Methods
	m.Identity = &id
	byName := map[string]manifest.Dataset{}
	seen := map[string]bool{} // an input given twice contributes its history once
	// The directory merged into keeps what it recorded (a run or an earlier
	// merge of the same study), before the inputs' histories.
	mans := []*manifest.Manifest{}
	if prev != nil {
		mans = append(mans, prev)
	}
	for _, mi := range ins {
		mans = append(mans, mi.man)
	}
	for _, man := range mans {
		for _, h := range man.History {
			k := h.Start.String() + "|" + h.Shard + "|" + h.Hostname + "|" + strings.Join(h.Command, " ")
			if !seen[k] {
				seen[k] = true
				m.History = append(m.History, h)
			}
		}
	}
	for _, mi := range ins {
		for _, d := range mi.man.Datasets {
			if _, ok := byName[d.Name]; !ok {
				byName[d.Name] = d
			}
		}
	}
	for _, d := range byName {
		m.Datasets = append(m.Datasets, d)
	}
	sort.Slice(m.Datasets, func(i, j int) bool { return m.Datasets[i].Name < m.Datasets[j].Name })
	m.End = time.Now().UTC()
	m.Units, m.Skipped = sum.ExpectedUnits, sum.PresentUnits
	status := "merged"
	if sum.Partial {
		status = "merged-partial"
		n := min(len(sum.Missing), 200)
		m.Partial = &manifest.Partial{ExpectedUnits: sum.ExpectedUnits, PresentUnits: sum.PresentUnits,
			Missing: sum.Missing[:n], MissingCount: len(sum.Missing), MissingShards: sum.MissingShards}
	}
	cur := m.Current()
	cur.Status = status
	m.History = append(m.History, cur)
	return m
}

// firstDifference names the first column (outside timing) where two rows
// of one unit differ.
func firstDifference(a, b results.Record) string {
	fa, fb := a.Fields(), b.Fields()
	timing := map[string]bool{}
	for _, c := range results.TimingColumns {
		timing[c] = true
	}
	for i, col := range results.Header {
		if !timing[col] && fa[i] != fb[i] {
			return fmt.Sprintf("%s %s vs %s", col, fa[i], fb[i])
		}
	}
	return "no column"
}

func sortedInts(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// Missing returns the canonical indices (in id.UnitList()) of the study's
// units that recs do not hold completely: no row, or fewer rows than the
// unit writes.
func Missing(id identity.Study, recs []results.Record) []int {
	rows := map[string]int{}
	for _, r := range recs {
		rows[r.Key]++
	}
	var out []int
	for i, u := range id.UnitList() {
		if rows[u.Key] != id.Groups[u.Group].RowsPerUnit {
			out = append(out, i)
		}
	}
	return out
}

// UnitName names a unit of a study by its coordinates,
// protocol/dataset/label/rR/fF/sS.
func UnitName(id identity.Study, u identity.Unit) string {
	g := id.Groups[u.Group]
	return study.Coordinates(g.Protocol, g.Dataset, g.Label, u.Repeat, u.Fold, u.Seed)
}

// SweepSelection is the selection column of a sweep's rows (protocol.SelectSweep,
// spelled here because the output directory's code sits below the
// protocols and does not import them).
const SweepSelection = "sweep"

// CheckSelected refuses results (read from path) that do not agree with
// their study: a row that is not one of its units (CheckUnits), or a unit
// held completely but with no selected row: a flipped selected cell,
// which would silently drop that fold from every reported mean. (Two
// selected rows of a unit are refused by results.Read itself.)
func CheckSelected(id identity.Study, recs []results.Record, path string) error {
	if err := CheckUnits(id, recs, path); err != nil {
		return err
	}
	rows, selected, first := map[string]int{}, map[string]int{}, map[string]int{}
	sweep := map[string]bool{} // a sweep keeps every configuration and selects none
	for i, r := range recs {
		if _, ok := first[r.Key]; !ok {
			first[r.Key] = i
		}
		rows[r.Key]++
		if r.Selected {
			selected[r.Key]++
		}
		sweep[r.Key] = sweep[r.Key] || r.Selection == SweepSelection
	}
	for _, u := range id.UnitList() {
		n := id.Groups[u.Group].RowsPerUnit
		if rows[u.Key] == n && n > 0 && selected[u.Key] == 0 && !sweep[u.Key] {
			return fmt.Errorf("%s: unit %s (rows from line %d) has all its %d rows but none is selected; exactly one configuration per unit and fold is selected (an edited file?): re-run that unit into a new --out", path, UnitName(id, u), first[u.Key]+2, n)
		}
	}
	return nil
}

// CheckUnits holds every row (read from path) to the study: its key is a
// unit of the study, so its repeat and fold lie within the study's and its
// seed is its repeat's; and its configuration is the one the unit's group
// lists at its config_index. (results.Read already holds each key to its
// row's own protocol, dataset, method, repeat, fold and seed.) Every
// reader that knows the study calls it, through CheckSelected, so that an
// edited fold 0 -> 7 of a 3-fold study is refused, not reported as a
// fold of its own.
func CheckUnits(id identity.Study, recs []results.Record, path string) error {
	units := make(map[string]identity.Unit, id.Units)
	for _, u := range id.UnitList() {
		units[u.Key] = u
	}
	for i, r := range recs {
		where := func() string { return fmt.Sprintf("%s: line %d", path, i+2) }
		u, ok := units[r.Key]
		if !ok {
			why := "it is not one of the study's"
			if w := outsideStudy(id, r); w != "" {
				why = w
			}
			return fmt.Errorf("%s: unit %s: %s (an edited row, or a row of another study)", where(), r.Key, why)
		}
		g := id.Groups[u.Group]
		if r.ConfigIndex >= len(g.Configs) || g.Configs[r.ConfigIndex] != r.Config {
			want := fmt.Sprintf("the study's %s has %d configurations", g.Slot(), len(g.Configs))
			if r.ConfigIndex < len(g.Configs) {
				want = fmt.Sprintf("the study's configuration %d of %s is %q", r.ConfigIndex, g.Slot(), g.Configs[r.ConfigIndex])
			}
			return fmt.Errorf("%s: config_index %d, config %q: %s (an edited row)", where(), r.ConfigIndex, r.Config, want)
		}
	}
	return nil
}

// outsideStudy says why row r, whose key is none of the study's units,
// is not: a repeat, fold or seed outside its group's ("" when its key
// names no group of the study).
func outsideStudy(id identity.Study, r results.Record) string {
	_, rest, _ := strings.Cut(r.Key, "#")
	hash, _, _ := strings.Cut(rest, "/")
	for _, g := range id.Groups {
		if g.Hash != hash || g.Slot() != r.Protocol+"/"+r.Dataset+"/"+r.Method {
			continue
		}
		switch {
		case r.Fold >= g.Folds:
			return fmt.Sprintf("fold %d is outside the study's %d folds (0 to %d) of %s", r.Fold, g.Folds, g.Folds-1, g.Slot())
		case r.Repeat >= g.Repeats:
			return fmt.Sprintf("repeat %d is outside the study's %d repeats (0 to %d) of %s", r.Repeat, g.Repeats, g.Repeats-1, g.Slot())
		case r.Seed != g.Seeds[r.Repeat]:
			return fmt.Sprintf("seed %d is not repeat %d's seed in %s, %d", r.Seed, r.Repeat, g.Slot(), g.Seeds[r.Repeat])
		}
	}
	return ""
}
