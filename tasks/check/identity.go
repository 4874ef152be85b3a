package check

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/results"
)

// setStudyDir makes the study's relative paths (data files, external
// commands and adapters) resolve from dir, made absolute here, once (see
// spec.Load).
func setStudyDir(s *study.Study, dir string) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	s.DataDir = dir
	for _, m := range s.Methods {
		if m.External != nil {
			m.External.BaseDir = dir
		}
	}
}

// noteOtherBuild notes a baseline written by another fgrtbench release
// (learners are compared by their own versions, so it is no failure). A
// development build's "(devel)" says nothing to compare.
func noteOtherBuild(o Options, b *gate.Baseline[study.Study]) {
	if _, version, _, _ := manifest.BuildInfo(); b.Fgrtbench != "" && b.Fgrtbench != "(devel)" && version != "(devel)" && b.Fgrtbench != version {
		o.Note(fmt.Sprintf("note: %s was written by fgrtbench %s, this is %s (learners are compared by their own versions)", o.Baseline, b.Fgrtbench, version))
	}
}

// canonical is a study's identity without the data and the learner
// versions (which a baseline records apart), rehashed: equal for two
// studies exactly when they are one study of (maybe) other data or
// learner versions.
func canonical(id identity.Study) identity.Study {
	groups := make([]identity.Group, len(id.Groups))
	for i, g := range id.Groups {
		g.DatasetSHA256, g.MethodVersion, g.Hash = "", 0, ""
		groups[i] = g
	}
	return identity.NewStudy(groups)
}

// recordOf is the record of the experiment a study identity describes.
func recordOf(id identity.Study) gate.Record {
	r := gate.Record{Data: map[string]string{}, Learners: map[string]gate.Learner{}, Spec: canonical(id).Hash}
	for _, g := range id.Groups {
		if g.DatasetSHA256 != "" {
			r.Data[g.Dataset] = g.DatasetSHA256
		}
		r.Learners[g.Label] = gate.Learner{Method: g.Method, Version: g.MethodVersion}
	}
	return r
}

// studyChange names how the study checked (cur) differs from the
// baseline's: the first slot (protocol/dataset/label) that differs, with
// what differs in it, or, when the baseline's own study no longer resolves
// to the canonical form it recorded, that.
func studyChange(b *gate.Baseline[study.Study], cur identity.Study) gate.Change {
	change := func(what string) gate.Change { return gate.Change{Kind: gate.StudyChanged, What: what} }
	base, err := study.IdentityOf(b.Study, nil)
	if err != nil {
		return change("the baseline's study no longer resolves: " + err.Error())
	}
	was, now := canonical(base), canonical(cur)
	if c := identity.Contains(now, was); c != nil {
		if c.Current == "" {
			return change(fmt.Sprintf("the baseline's study has %s, the checked one has not", c.Slot))
		}
		return change(fmt.Sprintf("%s: %s in the baseline, %s now", c.Slot, c.Stored, c.Current))
	}
	if c := identity.Contains(was, now); c != nil {
		return change(fmt.Sprintf("the checked study has %s, the baseline's has not", c.Slot))
	}
	return change(fmt.Sprintf("this build resolves the baseline's own study to canonical form %.20s…, the baseline recorded %.20s… (a default, a grid or the identity rules changed)", was.Hash, b.Identity.Spec))
}

// studyChanges compares the study check is about to run (and the learners
// this build would run it with) with the baseline's record, before
// anything runs: the differences, data aside (dataChanges compares each
// dataset as it loads). own says it is the baseline's own study.
func studyChanges(b *gate.Baseline[study.Study], s study.Study, own bool) ([]gate.Change, error) {
	id, err := study.IdentityOf(s, nil)
	if err != nil {
		return nil, err
	}
	cur := recordOf(id)
	cur.Data = nil // compared as each dataset loads (dataChanges)
	changes := gate.CompareRecords(*b.Identity, cur)
	for i, c := range changes {
		if c.Kind == gate.StudyChanged && cur.Spec != b.Identity.Spec {
			changes[i] = studyChange(b, id)
			if own && !strings.HasPrefix(changes[i].What, "this build resolves") {
				changes[i].What = "the baseline's own study: " + changes[i].What
			}
		}
	}
	return changes, nil
}

// dataChanges compares a dataset's table with the one the baseline
// records (datasets.Identity: a byte-level difference that leaves the table
// the same passes, an edited value does not).
func dataChanges(b *gate.Baseline[study.Study], name, id string) []gate.Change {
	want, ok := b.Identity.Data[name]
	if ok && want == id {
		return nil
	}
	base := gate.Record{Data: map[string]string{}}
	if ok {
		base.Data[name] = want
	}
	return gate.CompareRecords(base, gate.Record{Data: map[string]string{name: id}})
}

// experimentVet gathers every way the experiment check runs differs from
// the baseline's, so that the refusal names them all: the study's and the
// learners' differences found before the run, and each dataset's as the
// run loads it. The run loads every dataset before any unit runs; once the
// last one is loaded, a difference stops it there (checkData's error), so
// nothing runs, and a learner change no longer hides changed data.
type experimentVet struct {
	mu      sync.Mutex
	b       *gate.Baseline[study.Study]
	changes []gate.Change
	left    map[string]bool // datasets not loaded yet
}

func newExperimentVet(b *gate.Baseline[study.Study], s study.Study, changes []gate.Change) *experimentVet {
	v := &experimentVet{b: b, changes: changes, left: map[string]bool{}}
	for _, d := range s.Datasets {
		v.left[d] = true
	}
	return v
}

// checkData is the run's vetting of each dataset as it loads.
func (v *experimentVet) checkData(name string, d *datasets.Dataset) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.changes = append(v.changes, dataChanges(v.b, name, datasets.Identity(d))...)
	delete(v.left, name)
	if len(v.left) > 0 {
		return nil
	}
	return v.refusalLocked()
}

// refusal is the *gate.ChangedError naming every difference found (nil
// when none was): also after a run that stopped before it loaded every
// dataset, so that what was found is said.
func (v *experimentVet) refusal() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.refusalLocked()
}

func (v *experimentVet) refusalLocked() error {
	if len(v.changes) == 0 {
		return nil
	}
	return &gate.ChangedError{Changes: v.changes}
}

// sameExperiment refuses results made by another experiment than the
// baseline records (other data, learner versions or study): their rows
// would show as moved values, or pass, when the experiment itself differs.
// The manifest's identity says what made them.
func sameExperiment(b *gate.Baseline[study.Study], dir string, recs []results.Record) error {
	m, err := manifest.Read(dir)
	if err != nil {
		return fmt.Errorf("%s: cannot tell which data and learners made these results (%v); check a results directory with its manifest.json", dir, err)
	}
	if m.Identity == nil {
		return fmt.Errorf("%s: its manifest.json records no study identity (an earlier fgrtbench): cannot tell which data and learners made these results; re-run the study", dir)
	}
	cur := recordOf(*m.Identity)
	changes := gate.CompareRecords(*b.Identity, cur)
	for i, c := range changes {
		if c.Kind == gate.StudyChanged && cur.Spec != b.Identity.Spec {
			changes[i] = studyChange(b, *m.Identity)
		}
	}
	if len(changes) > 0 {
		return &gate.ChangedError{Changes: changes}
	}
	// The rows themselves are the study's units, as report holds them.
	return outdir.CheckStudyRows(dir, recs)
}

// restrictToShard keeps the baseline rows of the units in this run's shard,
// and notes how many of the baseline's rows the check covers.
func restrictToShard(o Options, b *gate.Baseline[study.Study], st study.Study) error {
	shard, err := o.Runner.Shard()
	if err != nil || shard.All() {
		return err
	}
	units, err := study.UnitsOf(st)
	if err != nil {
		return err
	}
	in := map[string]bool{}
	for i, u := range units {
		if shard.Contains(i) {
			in[fmt.Sprintf("%s/%s/%s/%d/%d", u.Protocol, u.Dataset, u.Label, u.Repeat, u.Fold)] = true
		}
	}
	var kept []gate.Row
	for _, r := range b.Rows {
		if in[fmt.Sprintf("%s/%s/%s/%d/%d", r.Protocol, r.Dataset, r.Method, r.Repeat, r.Fold)] {
			kept = append(kept, r)
		}
	}
	o.Note(fmt.Sprintf("shard %s: comparing the %d of the baseline's %d rows that belong to its units; the other shards check the rest", shard, len(kept), len(b.Rows)))
	b.Rows = kept
	return nil
}
