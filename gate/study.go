package gate

import (
	"fmt"
	"sort"
	"strings"
)

// Record is what a baseline knows of the experiment its rows are results
// of, beside the study it re-runs: the identity of every dataset's table,
// each learner's implementation version and the study's canonical form.
// Check compares it before any row, so that results of other data, another
// learner or another study are refused as such instead of passing when
// their rows happen to agree (or failing as "regressions" when they do not).
type Record struct {
	// Data maps each dataset of the study to its identity
	// (datasets.Identity: the table's content identity, or for the ten
	// KEEL tables the pinned file checksum that stands for it).
	Data map[string]string `json:"data"`
	// Learners maps each method label to its registry method and
	// implementation version.
	Learners map[string]Learner `json:"learners"`
	// Spec is the hash of the study's canonical form (protocols, options,
	// datasets by name, methods with every configuration resolved,
	// selection, folds, repeats, seeds) without the data and the learner
	// versions, which Data and Learners name.
	Spec string `json:"spec"`
}

// Learner is a method label's learner as the study resolved it.
type Learner struct {
	Method  string `json:"method"`
	Version int    `json:"version"`
}

// Kind classifies a difference between the experiment a baseline records
// and the one checked; each has its own exit status (docs/ci-gate.md).
type Kind int

// The kinds, in the order their exit statuses take precedence. A result
// that moved exits 1, a usage error 2.
const (
	DataChanged    Kind = 3
	LearnerChanged Kind = 4
	StudyChanged   Kind = 5
)

func (k Kind) String() string {
	switch k {
	case DataChanged:
		return "data changed"
	case LearnerChanged:
		return "learner changed"
	default:
		return "study changed"
	}
}

// Change is one difference of the recorded experiment.
type Change struct {
	Kind Kind
	// What names it: "dataset mine.csv: content:1a2b… in the baseline, content:3c4d… now".
	What string
}

// CompareRecords lists how the experiment checked (cur) differs from the
// baseline's (base), data first, then learners, then the study (one
// change naming every difference of the study). Datasets or labels that
// only one side records are a study change; cur.Spec "" skips the
// comparison of canonical forms, and cur.Data nil that of the data (the
// caller compares them its own way).
func CompareRecords(base, cur Record) []Change {
	var out []Change
	var study []string // names only one side records
	if cur.Data != nil {
		for _, name := range sortedKeys(base.Data) {
			now, ok := cur.Data[name]
			if ok && now != base.Data[name] {
				out = append(out, Change{DataChanged, fmt.Sprintf("dataset %s: %s in the baseline, %s now", name, short(base.Data[name]), dataIdentity(now, base.Data[name]))})
			}
		}
		study = append(study, onlyIn("dataset", base.Data, cur.Data)...)
	}
	for _, label := range sortedKeys(base.Learners) {
		b := base.Learners[label]
		now, ok := cur.Learners[label]
		if ok && now.Method == b.Method && now.Version != b.Version {
			out = append(out, Change{LearnerChanged, fmt.Sprintf("%s (%s) version %d in the baseline, %d now", label, b.Method, b.Version, now.Version)})
		}
		if ok && now.Method != b.Method {
			study = append(study, fmt.Sprintf("method label %s is %s in the baseline, %s now", label, b.Method, now.Method))
		}
	}
	if cur.Learners != nil {
		study = append(study, onlyIn("method label", base.Learners, cur.Learners)...)
	}
	if cur.Spec != "" && cur.Spec != base.Spec {
		study = append(study, fmt.Sprintf("canonical study %s in the baseline, %s now", short(base.Spec), short(cur.Spec)))
	}
	if len(study) > 0 {
		out = append(out, Change{StudyChanged, strings.Join(study, "; ")})
	}
	return out
}

// onlyIn names the keys that one of two records has and the other lacks.
func onlyIn[V any](what string, base, cur map[string]V) []string {
	var out []string
	for _, k := range sortedKeys(base) {
		if _, ok := cur[k]; !ok {
			out = append(out, fmt.Sprintf("%s %s is in the baseline's record, not in the checked study", what, k))
		}
	}
	for _, k := range sortedKeys(cur) {
		if _, ok := base[k]; !ok {
			out = append(out, fmt.Sprintf("%s %s is in the checked study, not in the baseline's record", what, k))
		}
	}
	return out
}

// dataIdentity shortens an identity for a message, and says so when it is
// a data file's byte checksum facing a table identity: results of an
// fgrtbench that identified data files by their bytes, whose table is
// unknown (docs/data.md#identity-of-a-dataset).
func dataIdentity(id, other string) string {
	if !strings.HasPrefix(id, "content:") && strings.HasPrefix(other, "content:") {
		return short(id) + " (a file checksum of an earlier fgrtbench: re-run the study with this one)"
	}
	return short(id)
}

// ChangedError refuses a check whose experiment differs from the
// baseline's; its exit status is the first change's kind.
type ChangedError struct {
	Changes []Change
}

// ExitCode is the status the command exits with: the lowest kind present
// (data 3, learner 4, study 5).
func (e *ChangedError) ExitCode() int {
	code := int(StudyChanged)
	for _, c := range e.Changes {
		code = min(code, int(c.Kind))
	}
	return code
}

// Error is one line naming every change, grouped by kind.
func (e *ChangedError) Error() string {
	byKind := map[Kind][]string{}
	for _, c := range e.Changes {
		byKind[c.Kind] = append(byKind[c.Kind], c.What)
	}
	var parts []string
	for _, k := range []Kind{DataChanged, LearnerChanged, StudyChanged} {
		if ws := byKind[k]; len(ws) > 0 {
			parts = append(parts, k.String()+": "+strings.Join(ws, "; "))
		}
	}
	return strings.Join(parts, "; ") + " — rows of another experiment are not compared; accept the change deliberately with --update"
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func short(h string) string {
	if len(h) > 20 {
		return h[:20] + "…"
	}
	return h
}
