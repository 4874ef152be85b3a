// Package gate compares results with a committed baseline: the
// regression-of-results gate. Deterministic methods must match exactly;
// methods whose baseline declares a tolerance may move within it; timing is
// compared only on request and only against a generous ratio.
package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/results"
)

// Tolerance is what a method may move by without counting as a regression.
type Tolerance struct {
	// Accuracy is the largest allowed absolute change of a fold accuracy.
	Accuracy float64 `json:"accuracy"`
	// Rules is the largest allowed absolute change of rules and antecedents.
	Rules int `json:"rules"`
	// Why explains the tolerance (which source of variation it covers).
	Why string `json:"why"`
}

// Row is the part of a result row a baseline pins: every stored column but
// the timing ones and the key (the key's identity hash is checked by resume
// and merge; a baseline pins values).
type Row struct {
	Protocol         string  `json:"protocol"`
	Dataset          string  `json:"dataset"`
	Method           string  `json:"method"`
	Repeat           int     `json:"repeat"`
	Fold             int     `json:"fold"`
	ConfigIndex      int     `json:"config_index"`
	Config           string  `json:"config"`
	Selected         bool    `json:"selected"`
	Selection        string  `json:"selection,omitempty"`
	Seed             int64   `json:"seed"`
	NTrain           int     `json:"n_train"`
	NTest            int     `json:"n_test"`
	Correct          int     `json:"correct"`
	Accuracy         float64 `json:"accuracy"`
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	Rules            int     `json:"rules"`
	Antecedents      int     `json:"antecedents"`
	RulebaseSize     int     `json:"rulebase_size"`
	Leaves           int     `json:"leaves"`
	InternalNodes    int     `json:"internal_nodes"`
	// FitSeconds is kept in memory for the timing comparison; baselines
	// store timing summed per (dataset, method) instead, so that updates
	// do not rewrite every row.
	FitSeconds float64 `json:"-"`
}

func (r Row) id() string {
	return fmt.Sprintf("%s/%s/%s/r%d/f%d/c%d", r.Protocol, r.Dataset, r.Method, r.Repeat, r.Fold, r.ConfigIndex)
}

// FromRecord extracts the pinned columns of a result row.
func FromRecord(r results.Record) Row {
	return Row{
		Protocol: r.Protocol, Dataset: r.Dataset, Method: r.Method, Repeat: r.Repeat, Fold: r.Fold,
		ConfigIndex: r.ConfigIndex, Config: r.Config, Selected: r.Selected, Selection: r.Selection, Seed: r.Seed,
		NTrain: r.NTrain, NTest: r.NTest, Correct: r.Correct, Accuracy: r.Accuracy, BalancedAccuracy: r.BalancedAccuracy,
		Rules: r.Rules, Antecedents: r.Antecedents, RulebaseSize: r.RulebaseSize, Leaves: r.Leaves,
		InternalNodes: r.InternalNodes, FitSeconds: r.FitSeconds,
	}
}

// Study is the study a baseline records (the runner's study type): the
// gate stores it and hands it back untouched, and asks it only which of its
// method labels are stochastic, so that it needs neither the runner nor the
// registry.
type Study interface {
	// MethodEntries lists each method label of the study with its registry
	// method and whether its results depend on the seed, in study order;
	// methods the registry does not know are left out.
	MethodEntries() []results.Method
}

// Baseline is a committed set of expected results with the study that
// produces them.
type Baseline[S Study] struct {
	Description string `json:"description"`
	// Study is run by 'fgrtbench check' when no results are given.
	Study S `json:"study"`
	// DataDir is where the study's relative paths (data files, external
	// commands) resolve from, relative to the baseline's own directory;
	// "" is the baseline's directory.
	DataDir string `json:"data_dir,omitempty"`
	// Fgrtbench is the version of fgrtbench that wrote the baseline. It is
	// informational: what a new version changes in a learner is its
	// version in Identity.
	Fgrtbench string `json:"fgrtbench,omitempty"`
	// Identity records the experiment the rows are results of (the
	// datasets' tables, the learners' versions, the canonical study);
	// check compares it before any row. Baselines written before it
	// existed lack it and are refused until --update records it.
	Identity *Record `json:"identity,omitempty"`
	// Tolerances per method label; methods not listed must match exactly.
	Tolerances map[string]Tolerance `json:"tolerances,omitempty"`
	// PaperNotes explains accepted differences from the authors' published
	// numbers, keyed "method/dataset" (see the paper check).
	PaperNotes map[string]string `json:"paper_notes,omitempty"`
	// FitSeconds sums fit time per "dataset/method" (rounded to ms) for the
	// optional timing comparison.
	FitSeconds map[string]float64 `json:"fit_seconds,omitempty"`
	Rows       []Row              `json:"rows"`
}

// Load reads a baseline file.
func Load[S Study](path string) (*Baseline[S], error) {
	data, err := safefile.ReadFile(path, safefile.ResultsCap)
	if err != nil {
		return nil, err
	}
	var b Baseline[S]
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &b, nil
}

// Validate refuses a tolerance declared for a deterministic method of the
// baseline's study: deterministic methods must match exactly.
func (b *Baseline[S]) Validate() error {
	for _, m := range b.Study.MethodEntries() {
		if _, ok := b.Tolerances[m.Label]; !ok {
			continue
		}
		if !m.Stochastic {
			return fmt.Errorf("a tolerance is declared for %s, but %s is deterministic: it must match exactly (remove the tolerance)", m.Label, m.Method)
		}
	}
	return nil
}

// Save writes a baseline file atomically with stable formatting: one row
// per line, so an update shows as a reviewable line diff.
func (b *Baseline[S]) Save(path string) error {
	sort.SliceStable(b.Rows, func(i, j int) bool { return b.Rows[i].id() < b.Rows[j].id() })
	head := *b
	head.Rows = nil
	data, err := json.MarshalIndent(head, "", " ")
	if err != nil {
		return err
	}
	// Replace the empty rows array with one compact row per line.
	data = bytes.TrimSuffix(bytes.TrimRight(data, "\n}"), []byte(`"rows": null`))
	var out bytes.Buffer
	out.Write(data)
	out.WriteString("\"rows\": [\n")
	for i, r := range b.Rows {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		out.WriteString("  ")
		out.Write(line)
		if i < len(b.Rows)-1 {
			out.WriteByte(',')
		}
		out.WriteByte('\n')
	}
	out.WriteString(" ]\n}\n")
	if !json.Valid(out.Bytes()) {
		return fmt.Errorf("baseline: internal error: invalid JSON written for %s", path)
	}
	return atomicfile.WriteFile(path, out.Bytes())
}

// Update replaces the baseline's rows with the given results. It refuses
// results that hold one row twice (files of two runs put together), which
// would pin whichever value came last.
func (b *Baseline[S]) Update(recs []results.Record) error {
	if dups := duplicates(recs); len(dups) > 0 {
		return fmt.Errorf("the results hold row %s more than once (%d such rows): rows of two runs put together; a baseline needs the results of one run", dups[0], len(dups))
	}
	b.Rows = b.Rows[:0]
	b.FitSeconds = map[string]float64{}
	for _, r := range recs {
		b.Rows = append(b.Rows, FromRecord(r))
		b.FitSeconds[r.Dataset+"/"+r.Method] += r.FitSeconds
	}
	for k, v := range b.FitSeconds {
		b.FitSeconds[k] = math.Round(v*1000) / 1000
	}
	sort.SliceStable(b.Rows, func(i, j int) bool { return b.Rows[i].id() < b.Rows[j].id() })
	return nil
}

// duplicates returns, sorted, the ids of rows that recs hold more than once.
// One run writes each (unit, configuration) once; a second row of it comes
// from another run, and comparing only one of them would hide the other.
func duplicates(recs []results.Record) []string {
	count := make(map[string]int, len(recs))
	var out []string
	for _, r := range recs {
		id := FromRecord(r).id()
		if count[id]++; count[id] == 2 {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// Diff is one difference between a baseline row and a result.
type Diff struct {
	ID       string
	Field    string
	Baseline string
	Result   string
	Delta    string
	// Regression is false for differences within a declared tolerance.
	Regression bool
}

// Options tune a comparison.
type Options struct {
	// TimingRatio, when > 0, flags a (dataset, method) whose summed fit time
	// exceeds the baseline's by more than this factor.
	TimingRatio float64
}

// Compare returns the differences between a baseline and results.
func Compare[S Study](b *Baseline[S], recs []results.Record, o Options) []Diff {
	got := map[string]Row{}
	for _, r := range recs {
		row := FromRecord(r)
		got[row.id()] = row
	}
	var diffs []Diff
	for _, id := range duplicates(recs) {
		diffs = append(diffs, Diff{ID: id, Field: "row", Baseline: "once", Result: "more than once", Regression: true})
	}
	seen := map[string]bool{}
	for _, want := range b.Rows {
		id := want.id()
		seen[id] = true
		have, ok := got[id]
		if !ok {
			diffs = append(diffs, Diff{ID: id, Field: "row", Baseline: "present", Result: "missing", Regression: true})
			continue
		}
		tol := b.Tolerances[want.Method]
		for _, f := range compareRow(want, have, tol) {
			f.ID = id
			diffs = append(diffs, f)
		}
	}
	var extra []string
	for id := range got {
		if !seen[id] {
			extra = append(extra, id)
		}
	}
	sort.Strings(extra)
	for _, id := range extra {
		diffs = append(diffs, Diff{ID: id, Field: "row", Baseline: "absent", Result: "new", Regression: true})
	}
	if o.TimingRatio > 0 {
		diffs = append(diffs, slowerFits(b.FitSeconds, recs, o.TimingRatio)...)
	}
	return diffs
}

// slowerFits names each dataset and method whose summed fit time grew by
// more than ratio over the baseline's.
func slowerFits(baseline map[string]float64, recs []results.Record, ratio float64) []Diff {
	got := map[string]float64{}
	for _, r := range recs {
		got[r.Dataset+"/"+r.Method] += r.FitSeconds
	}
	keys := make([]string, 0, len(baseline))
	for k := range baseline {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var diffs []Diff
	for _, k := range keys {
		bt, gt := baseline[k], got[k]
		// Below 50 ms of summed fit time, timer noise dominates.
		if bt > 0.05 && gt > bt*ratio {
			diffs = append(diffs, Diff{ID: k, Field: "fit_seconds", Baseline: fmtF(bt), Result: fmtF(gt), Delta: fmt.Sprintf("x%.1f", gt/bt), Regression: true})
		}
	}
	return diffs
}

// compareRow compares every pinned field of two rows of one unit and
// configuration, naming each field that moved. Fields fixed by the data and
// the protocol (n_train, n_test, seed, config, selection) must always match;
// scores and complexity counts may move within the method's tolerance (zero
// unless the baseline declares one for a stochastic method).
func compareRow(want, have Row, tol Tolerance) []Diff {
	var out []Diff
	add := func(field, bv, rv, delta string, within bool) {
		out = append(out, Diff{Field: field, Baseline: bv, Result: rv, Delta: delta, Regression: !within})
	}
	exact := func(field string, a, b any) {
		if a != b {
			add(field, fmt.Sprint(a), fmt.Sprint(b), "", false)
		}
	}
	exact("config", want.Config, have.Config)
	exact("selection", want.Selection, have.Selection)
	exact("seed", want.Seed, have.Seed)
	exact("n_train", want.NTrain, have.NTrain)
	exact("n_test", want.NTest, have.NTest)
	if want.Selected != have.Selected {
		add("selected", fmt.Sprint(want.Selected), fmt.Sprint(have.Selected), "", tol.Accuracy > 0)
	}
	score := func(field string, a, b float64) {
		if d := b - a; d != 0 {
			add(field, fmtF(a), fmtF(b), fmt.Sprintf("%+.4f", d), math.Abs(d) <= tol.Accuracy+1e-12)
		}
	}
	if d := have.Correct - want.Correct; d != 0 {
		// Within tolerance when the accuracy it amounts to is.
		within := want.NTest > 0 && float64(abs(d))/float64(want.NTest) <= tol.Accuracy+1e-12
		add("correct", fmt.Sprint(want.Correct), fmt.Sprint(have.Correct), fmt.Sprintf("%+d", d), within)
	}
	score("accuracy", want.Accuracy, have.Accuracy)
	score("balanced_accuracy", want.BalancedAccuracy, have.BalancedAccuracy)
	for _, f := range []struct {
		name string
		a, b int
	}{
		{"rules", want.Rules, have.Rules}, {"antecedents", want.Antecedents, have.Antecedents},
		{"rulebase_size", want.RulebaseSize, have.RulebaseSize},
		{"leaves", want.Leaves, have.Leaves}, {"internal_nodes", want.InternalNodes, have.InternalNodes},
	} {
		if d := f.b - f.a; d != 0 {
			add(f.name, fmt.Sprint(f.a), fmt.Sprint(f.b), fmt.Sprintf("%+d", d), abs(d) <= tol.Rules)
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func fmtF(v float64) string { return fmt.Sprintf("%.6g", v) }

// Regressions counts the differences that are regressions.
func Regressions(ds []Diff) int {
	n := 0
	for _, d := range ds {
		if d.Regression {
			n++
		}
	}
	return n
}

// WriteTable prints differences as a compact aligned table, at most limit
// rows (0 = all), regressions first.
func WriteTable(w io.Writer, ds []Diff, limit int) {
	sorted := append([]Diff(nil), ds...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Regression && !sorted[j].Regression })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "status\tunit (protocol/dataset/method/repeat/fold/config)\tfield\tbaseline\tresult\tdelta")
	for i, d := range sorted {
		if limit > 0 && i == limit {
			fmt.Fprintf(tw, "...\t%d more\t\t\t\t\n", len(sorted)-limit)
			break
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Verdict(), d.ID, d.Field, d.Baseline, d.Result, d.Delta)
	}
	tw.Flush()
}

// Verdict names a difference in the table: "within-tol" when it lies within
// the method's declared tolerance; beyond it, "IMPROVED" or "WORSE" for a
// field with a direction (a higher accuracy, balanced accuracy or count of
// correct predictions is better, a longer fit is worse) and "CHANGED" for
// the others. A rule count has no direction of its own (fewer rules at an
// equal accuracy is a different model, not a better one), nor has a
// configuration, a selection or a missing or new row. Every verdict but
// within-tol fails the check: an improvement is still a result that moved,
// and the baseline must be updated deliberately.
func (d Diff) Verdict() string {
	if !d.Regression {
		return "within-tol"
	}
	higher := 0 // +1 when a higher value is better, -1 when worse
	switch d.Field {
	case "accuracy", "balanced_accuracy", "correct":
		higher = 1
	case "fit_seconds":
		higher = -1
	}
	a, errA := strconv.ParseFloat(d.Baseline, 64)
	b, errB := strconv.ParseFloat(d.Result, 64)
	if higher == 0 || errA != nil || errB != nil || a == b {
		return "CHANGED"
	}
	if (b > a) == (higher > 0) {
		return "IMPROVED"
	}
	return "WORSE"
}

// Summary is a one-line account of a comparison.
func Summary[S Study](b *Baseline[S], ds []Diff) string {
	r := Regressions(ds)
	if r == 0 {
		return fmt.Sprintf("ok: %d baseline rows match (%d differences within declared tolerances)", len(b.Rows), len(ds))
	}
	fields := map[string]int{}
	for _, d := range ds {
		if d.Regression {
			fields[d.Field]++
		}
	}
	var parts []string
	for f, n := range fields {
		parts = append(parts, fmt.Sprintf("%s %d", f, n))
	}
	sort.Strings(parts)
	return fmt.Sprintf("FAIL: %d differences beyond tolerance against %d baseline rows (%s)", r, len(b.Rows), strings.Join(parts, ", "))
}
