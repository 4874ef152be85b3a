package artifacts

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// unitA has two configurations, one with scores (a NaN among them) and
// a -1 prediction; unitB has a class name that needs CSV quoting.
func unitA() ([]PredictionSet, []ModelRecord) {
	classes := []string{"no", "yes"}
	sets := []PredictionSet{
		{Key: "paper/a/fgrt/f0", ConfigIndex: 0, Classes: classes, Rows: []int{0, 3, 5},
			YTrue: []int{0, 1, 1}, YPred: []int{0, 0, -1},
			Scores: [][]float64{{0.75, 0.25}, {1.0 / 3, math.NaN()}, {0, 0}}},
		{Key: "paper/a/fgrt/f0", ConfigIndex: 1, Classes: classes, Rows: []int{0, 3, 5},
			YTrue: []int{0, 1, 1}, YPred: []int{0, 1, 1}},
	}
	models := []ModelRecord{
		{Key: "paper/a/fgrt/f0", ConfigIndex: 0, ModelHead: learn.ModelHead{Kind: "k/1", Features: []string{"x"}, Classes: classes,
			Rules: []string{"IF x IS Low THEN class no", "IF x <= 2 THEN class yes"}}, Model: json.RawMessage(`{"n":1}`)},
		{Key: "paper/a/fgrt/f0", ConfigIndex: 1, ModelHead: learn.ModelHead{Kind: "k/1", Features: []string{"x"}, Classes: classes,
			Rules: []string{}}, Model: json.RawMessage(`{"n":2}`)},
	}
	return sets, models
}

func unitB() ([]PredictionSet, []ModelRecord) {
	classes := []string{"yes", "a, b"}
	sets := []PredictionSet{{Key: "paper/b/cart/f1", Classes: classes, Rows: []int{1, 2},
		YTrue: []int{1, 0}, YPred: []int{1, 1}, Scores: [][]float64{{0.1, 0.9}, {0.2, 0.8}}}}
	models := []ModelRecord{{Key: "paper/b/cart/f1", ModelHead: learn.ModelHead{Kind: "k/1", Classes: classes,
		Rules: []string{"IF TRUE THEN class a, b"}}}}
	return sets, models
}

var scoreClasses = []string{"no", "yes", "a, b"}

func recordsFor(sets []PredictionSet, models []ModelRecord) []results.Record {
	var recs []results.Record
	for i, s := range sets {
		// As the runner records them: balanced accuracy by learn's
		// function over the schema's classes, one leaf per rule.
		r := results.Record{Key: s.Key, ConfigIndex: s.ConfigIndex, NTest: len(s.Rows), Rules: len(models[i].Rules),
			BalancedAccuracy: learn.BalancedAccuracy(s.YTrue, s.YPred, len(s.Classes)), Leaves: len(models[i].Rules)}
		for k := range s.Rows {
			if s.YPred[k] == s.YTrue[k] {
				r.Correct++
			}
		}
		recs = append(recs, r)
	}
	return recs
}

func writeUnits(t *testing.T, dir string, units ...func() ([]PredictionSet, []ModelRecord)) []results.Record {
	t.Helper()
	a, cut, err := Open(dir, scoreClasses)
	if err != nil || cut != 0 {
		t.Fatalf("open: cut %d, %v", cut, err)
	}
	defer a.Close()
	var recs []results.Record
	for _, u := range units {
		sets, models := u()
		if err := a.Append(sets, models); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, recordsFor(sets, models)...)
	}
	return recs
}

func TestArtifactsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	recs := writeUnits(t, dir, unitA, unitB)
	p, m, present, err := Read(dir, recs)
	if err != nil || !present {
		t.Fatalf("read: present %v, %v", present, err)
	}
	wantHeader := []string{"key", "config_index", "row", "y_true", "y_pred", "score_no", "score_yes", "score_a, b"}
	if !reflect.DeepEqual(p.Header, wantHeader) || !reflect.DeepEqual(p.ScoreClasses, scoreClasses) {
		t.Errorf("header %q, score classes %q", p.Header, p.ScoreClasses)
	}
	if !reflect.DeepEqual(p.Units, []string{"paper/a/fgrt/f0", "paper/b/cart/f1"}) || !reflect.DeepEqual(m.Units, p.Units) {
		t.Errorf("units %v and %v", p.Units, m.Units)
	}
	nan := math.NaN()
	want := []PredictionRow{
		{"paper/a/fgrt/f0", 0, 0, "no", "no", []float64{0.75, 0.25, nan}},
		{"paper/a/fgrt/f0", 0, 3, "yes", "no", []float64{1.0 / 3, nan, nan}},
		{"paper/a/fgrt/f0", 0, 5, "yes", "", []float64{0, 0, nan}},
		{"paper/a/fgrt/f0", 1, 0, "no", "no", nil},
		{"paper/a/fgrt/f0", 1, 3, "yes", "yes", nil},
		{"paper/a/fgrt/f0", 1, 5, "yes", "yes", nil},
		{"paper/b/cart/f1", 0, 1, "a, b", "a, b", []float64{nan, 0.1, 0.9}},
		{"paper/b/cart/f1", 0, 2, "yes", "a, b", []float64{nan, 0.2, 0.8}},
	}
	if len(p.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(p.Rows), len(want))
	}
	for i, got := range p.Rows {
		w := want[i]
		if got.Key != w.Key || got.ConfigIndex != w.ConfigIndex || got.Row != w.Row || got.YTrue != w.YTrue || got.YPred != w.YPred || !sameFloats(got.Scores, w.Scores) {
			t.Errorf("row %d = %+v, want %+v", i, got, w)
		}
	}
	_, wantA := unitA()
	_, wantB := unitB()
	wantModels := append(wantA, wantB...)
	// ReadModels keeps each model's JSON; Read drops it.
	full, _, err := ReadModels(mustRead(t, filepath.Join(dir, ModelsFile)), false)
	if err != nil || !reflect.DeepEqual(full.Records, wantModels) {
		t.Errorf("models read back as %+v (%v)", full.Records, err)
	}
	for i := range wantModels {
		wantModels[i].Model = nil
	}
	if !reflect.DeepEqual(m.Records, wantModels) {
		t.Errorf("a directory's models read back as %+v", m.Records)
	}
	derived, err := Derive(p, m)
	if err != nil {
		t.Fatal(err)
	}
	wantDerived := map[UnitConfig]Derived{
		// Recalls 1 and 0 of classes no and yes; 1 and 1; 1 and 0.
		{"paper/a/fgrt/f0", 0}: {NTest: 3, Correct: 1, Rules: 2, BalancedAccuracy: 0.5, Leaves: 2, HasModel: true, HasPredictions: true},
		{"paper/a/fgrt/f0", 1}: {NTest: 3, Correct: 3, Rules: 0, BalancedAccuracy: 1, Leaves: 0, HasModel: true, HasPredictions: true},
		{"paper/b/cart/f1", 0}: {NTest: 2, Correct: 1, Rules: 1, BalancedAccuracy: 0.5, Leaves: 1, HasModel: true, HasPredictions: true},
	}
	if !reflect.DeepEqual(derived, wantDerived) {
		t.Errorf("derived %+v", derived)
	}
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

// TestArtifactsTornTail cuts the files at every length inside the last
// unit's member: reopening cuts back to the first unit, and writing the
// second unit again gives the bytes of an uninterrupted run.
func TestArtifactsTornTail(t *testing.T) {
	ref := t.TempDir()
	writeUnits(t, ref, unitA, unitB)
	one := t.TempDir()
	writeUnits(t, one, unitA)
	for _, name := range []string{PredictionsFile, ModelsFile} {
		full, _ := os.ReadFile(filepath.Join(ref, name))
		first, _ := os.ReadFile(filepath.Join(one, name))
		for _, keep := range []int{len(first) + 1, len(first) + 10, (len(first) + len(full)) / 2, len(full) - 1} {
			dir := t.TempDir()
			for _, n := range []string{PredictionsFile, ModelsFile} {
				b, _ := os.ReadFile(filepath.Join(ref, n))
				if n == name {
					b = b[:keep]
				}
				os.WriteFile(filepath.Join(dir, n), b, 0o644)
			}
			torn, _ := os.ReadFile(filepath.Join(dir, name))
			if name == PredictionsFile {
				if _, _, err := ReadPredictions(torn, false); err == nil || !strings.Contains(err.Error(), "damaged at byte") {
					t.Errorf("%s cut to %d: read without allowTorn: %v", name, keep, err)
				}
			} else if _, _, err := ReadModels(torn, false); err == nil {
				t.Errorf("%s cut to %d: read without allowTorn gave no error", name, keep)
			}
			// The run died after the first unit's rows: resume keeps it,
			// drops what is beyond, and writes unit B again.
			if _, err := RetainUnits(dir, func(k string) bool { return k == "paper/a/fgrt/f0" }); err != nil {
				t.Fatal(err)
			}
			a, cut, err := Open(dir, scoreClasses)
			if err != nil || cut != 0 {
				t.Fatalf("reopen after RetainUnits: cut %d, %v", cut, err)
			}
			sets, models := unitB()
			if err := a.Append(sets, models); err != nil {
				t.Fatal(err)
			}
			a.Close()
			for _, n := range []string{PredictionsFile, ModelsFile} {
				got, _ := os.ReadFile(filepath.Join(dir, n))
				want, _ := os.ReadFile(filepath.Join(ref, n))
				if !bytes.Equal(got, want) {
					t.Errorf("%s cut to %d: after resume %s differs from an uninterrupted run", name, keep, n)
				}
			}
		}
	}
}

func TestOpenArtifactsCutsTornTail(t *testing.T) {
	dir := t.TempDir()
	writeUnits(t, dir, unitA, unitB)
	path := filepath.Join(dir, ModelsFile)
	full, _ := os.ReadFile(path)
	os.WriteFile(path, full[:len(full)-3], 0o644)
	a, cut, err := Open(dir, scoreClasses)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	members, torn, err := WholeMembers(mustRead(t, path))
	if err != nil {
		t.Fatal(err)
	}
	if torn || len(members) != 1 || cut != int64(len(full)-3)-members[0].End {
		t.Errorf("after open: %d members, torn %v, cut %d", len(members), torn, cut)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenArtifactsRefusesAnotherHeader(t *testing.T) {
	dir := t.TempDir()
	writeUnits(t, dir, unitA)
	if _, _, err := Open(dir, []string{"no", "yes"}); err == nil || !strings.Contains(err.Error(), "this study writes") {
		t.Errorf("reopening with other score classes: %v", err)
	}
}

func TestCrossCheckDisagreements(t *testing.T) {
	dir := t.TempDir()
	recs := writeUnits(t, dir, unitA, unitB)
	edit := func(f func(rs []results.Record) []results.Record) []results.Record {
		return f(append([]results.Record(nil), recs...))
	}
	cases := []struct {
		name string
		recs []results.Record
		want string
	}{
		{"correct", edit(func(rs []results.Record) []results.Record { rs[0].Correct++; return rs }), "says 2 of 3 correct, the predictions 1 of 3"},
		{"rules", edit(func(rs []results.Record) []results.Record { rs[2].Rules = 4; return rs }), "says 4 rules, the model records 1"},
		{"balanced accuracy", edit(func(rs []results.Record) []results.Record { rs[0].BalancedAccuracy = 0.75; return rs }), "paper/a/fgrt/f0 config 0: results.csv says balanced_accuracy 0.75, the predictions 0.5"},
		{"balanced accuracy, last digit", edit(func(rs []results.Record) []results.Record { rs[2].BalancedAccuracy = 0.5000001; return rs }), "says balanced_accuracy 0.5000001, the predictions 0.5"},
		{"leaves", edit(func(rs []results.Record) []results.Record { rs[1].Leaves = 3; return rs }), "paper/a/fgrt/f0 config 1: results.csv says 3 leaves, the model's 0 rules make 0"},
		{"row without artifacts", edit(func(rs []results.Record) []results.Record { return append(rs, results.Record{Key: "x", NTest: 1}) }), "x config 0: no predictions"},
		// A configuration of a unit that has rows, missing from them (a
		// unit with no row at all is one in flight, left out: below).
		{"artifacts without row", edit(func(rs []results.Record) []results.Record { rs[2].ConfigIndex = 5; return rs }), "paper/b/cart/f1 config 0: in the artifacts but not in results.csv"},
	}
	for _, c := range cases {
		_, _, _, err := Read(dir, c.recs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A unit with artifacts but no row (in flight when its run stopped:
	// artifacts are written first) is left out, not refused.
	var onlyA []results.Record
	for _, r := range recs {
		if r.Key == recs[0].Key {
			onlyA = append(onlyA, r)
		}
	}
	p, m, _, err := Read(dir, onlyA)
	if err != nil || len(p.Units) != 1 || len(m.Units) != 1 || p.Units[0] != recs[0].Key {
		t.Errorf("a unit in flight: %v units %v %v", err, p.Units, m.Units)
	}
	for _, r := range p.Rows {
		if r.Key != recs[0].Key {
			t.Errorf("row of the unit in flight kept: %+v", r)
		}
	}
	for _, r := range m.Records {
		if r.Key != recs[0].Key {
			t.Errorf("model of the unit in flight kept: %+v", r.Key)
		}
	}
	// A unit appended twice (a resume that did not retain) is refused.
	a, _, err := Open(dir, scoreClasses)
	if err != nil {
		t.Fatal(err)
	}
	sets, models := unitB()
	a.Append(sets, models)
	a.Close()
	if _, _, _, err := Read(dir, recs); err == nil || !strings.Contains(err.Error(), "recorded twice") {
		t.Errorf("a unit appended twice: %v", err)
	}
}

func TestReadArtifactsAbsentAndHalf(t *testing.T) {
	dir := t.TempDir()
	if _, _, present, err := Read(dir, nil); present || err != nil {
		t.Errorf("no artifacts: present %v, %v", present, err)
	}
	writeUnits(t, dir, unitA)
	os.Remove(filepath.Join(dir, ModelsFile))
	if _, _, present, err := Read(dir, nil); !present || err == nil {
		t.Errorf("predictions without models: present %v, %v", present, err)
	}
}

func TestAppendRefusesMalformedUnits(t *testing.T) {
	dir := t.TempDir()
	a, _, err := Open(dir, scoreClasses)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	sets, models := unitA()
	// A learner's description is written as it gave it when it scans as
	// compact (learn.NewDescription's pass-through), so the writer is
	// where invalid model JSON is stopped.
	invalid := append([]ModelRecord(nil), models...)
	invalid[0].Model = []byte(`{"nodes":[1,}`)
	bad := []struct {
		name   string
		sets   []PredictionSet
		models []ModelRecord
	}{
		{"no predictions", nil, models},
		{"no models", sets, nil},
		{"model not JSON", sets, invalid},
		{"class out of range", []PredictionSet{{Key: "k", Classes: []string{"no"}, Rows: []int{0}, YTrue: []int{1}, YPred: []int{0}}}, models},
		{"short scores", []PredictionSet{{Key: "k", Classes: []string{"no", "yes"}, Rows: []int{0}, YTrue: []int{1}, YPred: []int{0}, Scores: [][]float64{{1}}}}, models},
		{"class without a score column", []PredictionSet{{Key: "k", Classes: []string{"maybe"}, Rows: []int{0}, YTrue: []int{0}, YPred: []int{0}, Scores: [][]float64{{1}}}}, models},
	}
	before := mustRead(t, filepath.Join(dir, PredictionsFile))
	for _, c := range bad {
		if err := a.Append(c.sets, c.models); err == nil {
			t.Errorf("%s: appended", c.name)
		}
	}
	if !bytes.Equal(before, mustRead(t, filepath.Join(dir, PredictionsFile))) || len(mustRead(t, filepath.Join(dir, ModelsFile))) != 0 {
		t.Error("a refused unit left bytes behind")
	}
}

func TestNewModelRecordUnscales(t *testing.T) {
	cat := learn.JSONFloat(2)
	d := learn.Description{ModelHead: learn.ModelHead{Kind: "k/1", Rules: nil}, Partitions: []learn.PartitionTerm{
		{TermRef: learn.TermRef{Feature: 1, FeatureName: "b", Term: 0, TermName: "Low"}, Trapezoid: []learn.JSONFloat{0, 0, 0.25, 0.5}},
		{TermRef: learn.TermRef{Feature: 0, FeatureName: "a", Term: 2, TermName: "red"}, Category: &cat},
	}}
	// feature 1 was min-max scaled from [10, 30]
	unscale := func(j int, v float64) float64 { return 10 + 20*v }
	m := NewModelRecord("k", 3, d, unscale)
	want := []Term{
		{TermRef: learn.TermRef{Feature: 1, FeatureName: "b", Term: 0, TermName: "Low"},
			Trapezoid: []learn.JSONFloat{10, 10, 15, 20}, TrapezoidScaled: []learn.JSONFloat{0, 0, 0.25, 0.5}},
		{TermRef: learn.TermRef{Feature: 0, FeatureName: "a", Term: 2, TermName: "red"}, Category: &cat},
	}
	if !reflect.DeepEqual(m.Partitions, want) || m.Rules != nil || m.ConfigIndex != 3 {
		t.Errorf("record %+v", m)
	}
	if back := m.Description(); !reflect.DeepEqual(back.Partitions, d.Partitions) {
		t.Errorf("Description gives back partitions %+v", back.Partitions)
	}
}

// TestPredictionsReadByPandas: the file is read by pandas.read_csv without
// options (the promise), with the columns, the empty cells as NaN
// and the scores' exact values.
func TestPredictionsReadByPandas(t *testing.T) {
	// The first python3 on PATH may be a private one without pandas; the
	// system's may have it (apt-get install python3-pandas).
	py := ""
	for _, cand := range []string{"python3", "/usr/bin/python3"} {
		if p, err := exec.LookPath(cand); err == nil && exec.Command(p, "-c", "import pandas").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Skip("no python3 with pandas (apt-get install python3-pandas)")
	}
	dir := t.TempDir()
	writeUnits(t, dir, unitA, unitB)
	script := `
import sys, pandas
df = pandas.read_csv(sys.argv[1])
print(len(df), "|".join(df.columns))
print(df["score_no"].isna().sum(), df["y_pred"].isna().sum(), repr(df["score_no"][1]), df["y_true"][6])
`
	out, err := exec.Command(py, "-c", script, filepath.Join(dir, PredictionsFile)).CombinedOutput()
	if err != nil {
		t.Fatalf("pandas: %v\n%s", err, out)
	}
	want := "8 key|config_index|row|y_true|y_pred|score_no|score_yes|score_a, b\n" +
		"5 1 0.3333333333333333 a, b\n"
	if string(out) != want {
		t.Errorf("pandas read:\n%s\nwant\n%s", out, want)
	}
}

// threshold is a learn.Model with scores and a description, for FromModel.
type threshold struct{}

func (threshold) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	for i, x := range X {
		if x[0] > 1 {
			out[i] = 1
		}
	}
	return out
}
func (threshold) Complexity() learn.Complexity {
	return learn.Complexity{Rules: 2, Antecedents: 2, Leaves: 2}
}
func (threshold) Rules(s learn.Schema) string {
	return "IF a <= 1 THEN class " + s.ClassName(0) + "\nIF a > 1 THEN class " + s.ClassName(1) + "\n# note\n"
}

type thresholdFull struct{ threshold }

func (thresholdFull) Scores(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, x := range X {
		out[i] = []float64{1 - x[0]/2, x[0] / 2}
	}
	return out
}
func (m thresholdFull) Describe(s learn.Schema) (learn.Description, error) {
	return learn.NewDescription("test.threshold/1", m, s, map[string]float64{"cut": 1})
}

func TestFromModel(t *testing.T) {
	s := learn.Schema{Features: []learn.Feature{{Name: "a"}}, Classes: []string{"lo", "hi"}}
	xte := [][]float64{{0.5}, {2}}
	cases := []struct {
		name      string
		m         learn.Model
		kind      string
		hasScores bool
	}{
		{"plain model", threshold{}, "", false},
		{"scorer and describer", thresholdFull{}, "test.threshold/1", true},
	}
	for _, c := range cases {
		pred := c.m.Predict(xte)
		ps, mr, err := FromModel("u", 2, s, c.m, xte, []int{7, 9}, []int{0, 0}, pred, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (ps.Scores != nil) != c.hasScores || mr.Kind != c.kind || len(mr.Rules) != 2 || mr.ConfigIndex != 2 ||
			!reflect.DeepEqual(ps.Rows, []int{7, 9}) || !reflect.DeepEqual(mr.Features, []string{"a"}) || !reflect.DeepEqual(ps.Classes, []string{"lo", "hi"}) {
			t.Errorf("%s: predictions %+v, model %+v", c.name, ps, mr)
		}
	}
	if _, _, err := FromModel("u", 0, s, threshold{}, xte, []int{1}, []int{0, 0}, []int{0, 1}, nil); err == nil {
		t.Error("rows of another length accepted")
	}
	// A model without rules text (an external method may give none) is
	// recorded with rules unknown; one whose text disagrees with its count
	// is refused.
	_, mr, err := FromModel("u", 0, s, silent{threshold{}, ""}, xte, []int{1, 2}, []int{0, 0}, []int{0, 1}, nil)
	if err != nil || mr.Rules != nil {
		t.Errorf("no rules text: rules %q, %v", mr.Rules, err)
	}
	if _, _, err := FromModel("u", 0, s, silent{threshold{}, "IF TRUE THEN class lo\n"}, xte, []int{1, 2}, []int{0, 0}, []int{0, 1}, nil); err == nil ||
		!strings.Contains(err.Error(), "prints 1 rules") {
		t.Errorf("1 printed rule for 2 counted: %v", err)
	}
	// Its unknown count is not held against results.csv.
	derived, err := Derive(Predictions{}, Models{Records: []ModelRecord{mr}})
	if err != nil || derived[UnitConfig{"u", 0}].Rules != -1 {
		t.Errorf("derived %+v, %v", derived, err)
	}
	// A unit with artifacts and no row at all was in flight when its run
	// stopped: not a disagreement (readers leave it out).
	if errs := CrossCheck(nil, map[UnitConfig]Derived{{"u", 0}: {NTest: 2, Rules: -1, HasModel: true, HasPredictions: true}}, 0); len(errs) != 0 {
		t.Errorf("cross-check: %v", errs)
	}
	recs := []results.Record{{Key: "u", NTest: 2, Rules: 7}}
	if errs := CrossCheck(recs, map[UnitConfig]Derived{{"u", 0}: {NTest: 2, Rules: -1, HasModel: true, HasPredictions: true}}, 0); len(errs) != 0 {
		t.Errorf("unknown rules held against the row: %v", errs)
	}
}

// readableThreshold prints its threshold for a reader (learn.ReadableRuler),
// or, faulty, one rule too few.
type readableThreshold struct {
	threshold
	dropOne bool
}

func (m readableThreshold) ReadableRules(s learn.Schema, unscale learn.Unscale) string {
	v := 1.0
	if unscale != nil {
		v = unscale(0, v)
	}
	text := "IF a <= " + learn.ReadableNumber(v) + " THEN class " + s.ClassName(0) + "\n"
	if m.dropOne {
		return text
	}
	return text + "IF a > " + learn.ReadableNumber(v) + " THEN class " + s.ClassName(1) + "\n"
}

// TestFromModelReadableRules: a learn.ReadableRuler's rules are recorded
// for a reader through the fold's unscale, beside the learner's own; a
// model without it records none; a readable text that drops a rule is
// refused.
func TestFromModelReadableRules(t *testing.T) {
	s := learn.Schema{Features: []learn.Feature{{Name: "a"}}, Classes: []string{"lo", "hi"}}
	xte := [][]float64{{0.5}, {2}}
	unscale := func(j int, v float64) float64 { return v*41.25 + 715.7523 }
	for _, c := range []struct {
		name         string
		m            learn.Model
		unscale      Unscale
		want         []string
		wantRecorded bool
	}{
		{"scaled fold", readableThreshold{}, unscale, []string{"IF a <= 757.0 THEN class lo", "IF a > 757.0 THEN class hi"}, true},
		{"unscaled", readableThreshold{}, nil, []string{"IF a <= 1.000 THEN class lo", "IF a > 1.000 THEN class hi"}, true},
		{"no thresholds to map", threshold{}, unscale, []string{"IF a <= 1 THEN class lo", "IF a > 1 THEN class hi"}, false},
	} {
		_, mr, err := FromModel("u", 0, s, c.m, xte, []int{1, 2}, []int{0, 0}, []int{0, 1}, c.unscale)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, _ := mr.Readable()
		if recorded := mr.ReadableRules != nil; !reflect.DeepEqual(got, c.want) || recorded != c.wantRecorded || !reflect.DeepEqual(mr.Rules, []string{"IF a <= 1 THEN class lo", "IF a > 1 THEN class hi"}) {
			t.Errorf("%s: readable %q (recorded %v), rules %q; want %q (%v)", c.name, got, recorded, mr.Rules, c.want, c.wantRecorded)
		}
	}
	// A threshold learner's record without readable rules (stored by an
	// older build) is in the learner's units; other records never are.
	for _, c := range []struct {
		m    ModelRecord
		want bool
	}{
		{ModelRecord{ModelHead: learn.ModelHead{Kind: "cart.tree/1", Rules: []string{"IF a <= 0.1 THEN class lo"}}}, true},
		{ModelRecord{ModelHead: learn.ModelHead{Kind: "ripper.rulesets/1", Rules: []string{"IF a=<0.1 THEN class lo"}}}, true},
		{ModelRecord{ModelHead: learn.ModelHead{Kind: "cart.tree/1",
			Rules: []string{"IF a <= 0.1 THEN class lo"}}, ReadableRules: []string{"IF a <= 757.0 THEN class lo"}}, false},
		{ModelRecord{ModelHead: learn.ModelHead{Kind: "fgrt.tree/1", Rules: []string{"IF a IS Low THEN class lo"}}}, false},
		{ModelRecord{ModelHead: learn.ModelHead{Kind: "cart.tree/1", Rules: []string{}}}, false},
	} {
		if _, got := c.m.Readable(); got != c.want {
			t.Errorf("%s %q (readable %q): learner units %v, want %v", c.m.Kind, c.m.Rules, c.m.ReadableRules, got, c.want)
		}
	}
	// A stored record whose readable rules do not pair with its rules
	// (an edited file) is refused by every reader.
	bad := ModelRecord{Key: "u", ModelHead: learn.ModelHead{Rules: []string{"IF a <= 1 THEN class lo", "IF a > 1 THEN class hi"}},
		ReadableRules: []string{"IF a <= 757.0 THEN class lo"}}
	if _, err := Derive(Predictions{}, Models{Records: []ModelRecord{bad}}); err == nil || !strings.Contains(err.Error(), "u config 0 holds 1 readable rules for 2 rules") {
		t.Errorf("readable rules one short: %v", err)
	}
	if _, _, err := FromModel("u", 0, s, readableThreshold{dropOne: true}, xte, []int{1, 2}, []int{0, 0}, []int{0, 1}, unscale); err == nil ||
		!strings.Contains(err.Error(), "1 readable rules for 2 rules") {
		t.Errorf("a readable text one rule short: %v", err)
	}
}

// silent is a model with the given rules text.
type silent struct {
	threshold
	text string
}

func (m silent) Rules(learn.Schema) string { return m.text }

// TestSortArtifacts: units appended in any order read back in key order,
// with the bytes of units appended in that order.
func TestSortArtifacts(t *testing.T) {
	sorted, shuffled := t.TempDir(), t.TempDir()
	writeUnits(t, sorted, unitA, unitB)
	writeUnits(t, shuffled, unitB, unitA)
	if err := Sort(shuffled); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{PredictionsFile, ModelsFile} {
		if !bytes.Equal(mustRead(t, filepath.Join(sorted, n)), mustRead(t, filepath.Join(shuffled, n))) {
			t.Errorf("%s: sorted units differ from units written in order", n)
		}
	}
	if err := Sort(t.TempDir()); err != nil {
		t.Errorf("a directory without artifacts: %v", err)
	}
}

// TestFinishOrdersUnits: Finish orders the members by key from its index,
// over units found on opening and units appended since, with the bytes of
// units appended in key order; the files stay readable by others.
func TestFinishOrdersUnits(t *testing.T) {
	ref := t.TempDir()
	writeUnits(t, ref, unitA, unitB)
	dir := t.TempDir()
	writeUnits(t, dir, unitB) // a first run wrote B
	a, _, err := Open(dir, scoreClasses)
	if err != nil {
		t.Fatal(err)
	}
	sets, models := unitA()
	if err := a.Append(sets, models); err != nil {
		t.Fatal(err)
	}
	if err := a.Finish(); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{PredictionsFile, ModelsFile} {
		if !bytes.Equal(mustRead(t, filepath.Join(ref, n)), mustRead(t, filepath.Join(dir, n))) {
			t.Errorf("%s: not in key order after Finish", n)
		}
		if st, err := os.Stat(filepath.Join(dir, n)); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, %v", n, st.Mode(), err)
		}
	}
	if err := a.Close(); err != nil {
		t.Errorf("Close after Finish: %v", err)
	}
	mixed := []PredictionSet{sets[0], {Key: "other", Classes: sets[0].Classes, Rows: []int{0}, YTrue: []int{0}, YPred: []int{0}}}
	b, _, _ := Open(dir, scoreClasses)
	defer b.Close()
	if err := b.Append(mixed, models); err == nil {
		t.Error("one append naming two units accepted")
	}
}

func TestMergeArtifacts(t *testing.T) {
	ref := t.TempDir()
	writeUnits(t, ref, unitA, unitB)
	s1, s2, s3 := t.TempDir(), t.TempDir(), t.TempDir()
	writeUnits(t, s1, unitB)
	writeUnits(t, s2, unitA)
	writeUnits(t, s3, unitA) // the same unit again, with equal bytes
	dst := t.TempDir()
	if present, err := Merge(dst, []string{s1, s2, s3}, nil); err != nil || !present {
		t.Fatalf("merge: present %v, %v", present, err)
	}
	for _, n := range []string{PredictionsFile, ModelsFile} {
		if !bytes.Equal(mustRead(t, filepath.Join(ref, n)), mustRead(t, filepath.Join(dst, n))) {
			t.Errorf("%s: merged shards differ from a single run", n)
		}
	}
	if present, err := Merge(t.TempDir(), []string{t.TempDir(), t.TempDir()}, nil); present || err != nil {
		t.Errorf("shards without artifacts: present %v, %v", present, err)
	}

	conflict := t.TempDir()
	writeUnits(t, conflict, func() ([]PredictionSet, []ModelRecord) {
		sets, models := unitA()
		sets[1].YPred[0] = 1 // another prediction for one row
		return sets, models
	})
	otherHeader := t.TempDir()
	a, _, _ := Open(otherHeader, []string{"no", "yes"})
	a.Close()
	torn := t.TempDir()
	writeUnits(t, torn, unitA)
	b := mustRead(t, filepath.Join(torn, ModelsFile))
	os.WriteFile(filepath.Join(torn, ModelsFile), b[:len(b)-2], 0o644)
	half := t.TempDir()
	writeUnits(t, half, unitA)
	os.Remove(filepath.Join(half, PredictionsFile))

	cases := []struct {
		name string
		srcs []string
		want string
	}{
		{"conflicting unit", []string{s2, conflict}, "unit paper/a/fgrt/f0 has different predictions.csv.gz"},
		{"missing artifacts", []string{s1, t.TempDir()}, "merge shards run alike"},
		{"other columns", []string{s1, otherHeader}, "different prediction columns"},
		{"torn shard", []string{s1, torn}, "is damaged after byte"},
		{"one file of two", []string{s1, half}, "one artifact file without the other"},
	}
	for _, c := range cases {
		dst := t.TempDir()
		if _, err := Merge(dst, c.srcs, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if files, _ := os.ReadDir(dst); len(files) != 0 {
			t.Errorf("%s: a refused merge wrote %d files", c.name, len(files))
		}
	}
	// A partial merge keeps the units its results keep.
	only := t.TempDir()
	if _, err := Merge(only, []string{s1, s2}, func(k string) bool { return k == "paper/a/fgrt/f0" }); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{PredictionsFile, ModelsFile} {
		if !bytes.Equal(mustRead(t, filepath.Join(s2, n)), mustRead(t, filepath.Join(only, n))) {
			t.Errorf("%s: the kept unit alone differs from its shard", n)
		}
	}
}
