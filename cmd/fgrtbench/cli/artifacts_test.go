package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// editPredictions rewrites dir's predictions.csv.gz member by member
// (one gzip member per unit, as the runner writes them), passing each
// member's CSV records (header first in the first member) through edit.
func editPredictions(t *testing.T, dir string, edit func(member int, recs [][]string)) {
	t.Helper()
	path := filepath.Join(dir, artifacts.PredictionsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	members, torn, err := artifacts.WholeMembers(data)
	if err != nil {
		t.Fatal(err)
	}
	if torn {
		t.Fatal("torn predictions file")
	}
	var out bytes.Buffer
	for i, m := range members {
		recs, err := csv.NewReader(bytes.NewReader(m.Data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		edit(i, recs)
		var text bytes.Buffer
		w := csv.NewWriter(&text)
		if err := w.WriteAll(recs); err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(&out)
		zw.Write(text.Bytes())
		zw.Close()
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// column returns the index of name in a predictions header.
func column(t *testing.T, header []string, name string) int {
	for i, h := range header {
		if h == name {
			return i
		}
	}
	t.Fatalf("no column %s in %v", name, header)
	return -1
}

// TestNoArtifacts: --no-artifacts writes neither artifact file, the
// manifest records "off", and the report says so in its run facts.
func TestNoArtifacts(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	out := filepath.Join(tmp, "out")
	if code, _, stderr := runCLI("run", "--spec", spec, "--out", out, "-j", "1", "--no-artifacts"); code != 0 {
		t.Fatalf("run: %d %s", code, stderr)
	}
	for _, f := range []string{artifacts.PredictionsFile, artifacts.ModelsFile} {
		if _, err := os.Stat(filepath.Join(out, f)); !os.IsNotExist(err) {
			t.Errorf("%s exists after --no-artifacts (%v)", f, err)
		}
	}
	if m := must(manifest.Read(out)); m.Artifacts != "off" {
		t.Errorf("manifest artifacts = %q, want off", m.Artifacts)
	}
	rep := string(must(os.ReadFile(filepath.Join(out, "report", "REPORT.md"))))
	if !strings.Contains(rep, "artifacts") || !strings.Contains(rep, "off: no predictions.csv.gz") {
		t.Errorf("REPORT.md does not say the artifacts are off")
	}
	baseline := filepath.Join(tmp, "b.json")
	if code, _, stderr := runCLI("check", "--baseline", baseline, "--results", out, "--update"); code != 0 {
		t.Fatalf("check --update: %d %s", code, stderr)
	}
	if code, _, stderr := runCLI("check", "--baseline", baseline, "--results", out); code != 0 || !strings.Contains(stderr, "keeps no artifacts") {
		t.Errorf("check of a directory without artifacts: exit %d, stderr %q (want it said)", code, stderr)
	}
	code, _, stderr := runCLI("check", "--predictions", "--results", out, "--against", out)
	if code == 0 || !strings.Contains(stderr, "--no-artifacts") {
		t.Errorf("check --predictions of a directory without artifacts: %d %q", code, stderr)
	}
}

// TestReadersRefuseEditedPredictions: report, check and merge re-derive
// every row's counts from the artifacts and refuse a directory whose
// predictions were edited, with a line naming the unit and what differs.
func TestReadersRefuseEditedPredictions(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	out := filepath.Join(tmp, "out")
	if code, _, stderr := runCLI("run", "--spec", spec, "--out", out, "-j", "1"); code != 0 {
		t.Fatalf("run: %d %s", code, stderr)
	}
	if m := must(manifest.Read(out)); m.Artifacts != "kept" {
		t.Fatalf("manifest artifacts = %q, want kept", m.Artifacts)
	}
	rep := string(must(os.ReadFile(filepath.Join(out, "report", "REPORT.md"))))
	if !strings.Contains(rep, "re-derived and equal to results.csv") {
		t.Errorf("REPORT.md does not state the artifacts were re-derived")
	}
	// The report's uses of the artifacts: the scores table and the
	// dataset's rules file with its confusion matrix, linked.
	rules, err := os.ReadFile(filepath.Join(out, "report", "rules", "mine.md"))
	if err != nil || !strings.Contains(rep, "Scores and rule stability") || !strings.Contains(rep, "(rules/mine.md)") ||
		!strings.Contains(string(rules), "Confusion matrix over 60 test rows") || !strings.Contains(string(rules), "Representative fold") {
		t.Errorf("report without the artifacts' views (%v):\n%s", err, rules)
	}
	page := string(must(os.ReadFile(filepath.Join(out, "report", "index.html"))))
	if !strings.Contains(page, "Scores and rule stability of protocol clean") || !strings.Contains(page, `href="rules/mine.md"`) {
		t.Errorf("index.html without the scores table and the rules file")
	}
	baseline := filepath.Join(tmp, "b.json")
	if code, _, stderr := runCLI("check", "--baseline", baseline, "--results", out, "--update"); code != 0 {
		t.Fatalf("check --update: %d %s", code, stderr)
	}
	var key string
	editPredictions(t, out, func(i int, recs [][]string) {
		if i != 1 {
			return
		}
		h := must(csv.NewReader(strings.NewReader(strings.Join(predHeader(t, out), ","))).Read())
		yt, yp := column(t, h, "y_true"), column(t, h, "y_pred")
		r := recs[0]
		key = r[column(t, h, "key")]
		// Flip the first row's prediction: one more or one fewer correct.
		if r[yp] == r[yt] {
			r[yp] = map[string]string{"a": "b", "b": "a"}[r[yt]]
		} else {
			r[yp] = r[yt]
		}
	})
	for _, args := range [][]string{
		{"report", "--results", out},
		{"check", "--baseline", baseline, "--results", out},
		{"merge", "--out", filepath.Join(tmp, "merged"), out},
	} {
		code, _, stderr := runCLI(args...)
		if code == 0 || !strings.Contains(stderr, key) || !strings.Contains(stderr, "the predictions") {
			t.Errorf("%s of edited predictions: exit %d, stderr %q (want the unit %s and what differs)", args[0], code, stderr, key)
		}
	}
}

// predHeader reads the header of dir's predictions.
func predHeader(t *testing.T, dir string) []string {
	p, _, err := artifacts.ReadPredictions(must(os.ReadFile(filepath.Join(dir, artifacts.PredictionsFile))), false)
	if err != nil {
		t.Fatal(err)
	}
	return p.Header
}

// TestCheckPredictions: a changed prediction that leaves every accuracy as
// it was (a right and a wrong prediction of one unit swapped) passes the
// accuracy gate but fails check --predictions, which names the two rows.
func TestCheckPredictions(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	ref, cur := filepath.Join(tmp, "ref"), filepath.Join(tmp, "cur")
	for _, out := range []string{ref, cur} {
		if code, _, stderr := runCLI("run", "--spec", spec, "--out", out, "-j", "1", "--no-report"); code != 0 {
			t.Fatalf("run: %d %s", code, stderr)
		}
	}
	if code, stdout, stderr := runCLI("check", "--predictions", "--results", cur, "--against", ref); code != 0 || !strings.Contains(stdout, "0 of ") {
		t.Fatalf("identical runs: exit %d %q %q", code, stdout, stderr)
	}
	h := predHeader(t, cur)
	yt, yp, rowCol := column(t, h, "y_true"), column(t, h, "y_pred"), column(t, h, "row")
	var rows []string
	for m := 1; m < 10 && rows == nil; m++ {
		editPredictions(t, cur, func(i int, recs [][]string) {
			if i != m || rows != nil {
				return
			}
			// Two rows of one configuration and one true class, one right
			// and one wrong: swapping their predictions keeps the count.
			for a := range recs {
				for b := range recs {
					if recs[a][1] == recs[b][1] && recs[a][yt] == recs[b][yt] && recs[a][yp] == recs[a][yt] && recs[b][yp] != recs[b][yt] {
						recs[a][yp], recs[b][yp] = recs[b][yp], recs[a][yp]
						rows = []string{recs[a][rowCol], recs[b][rowCol]}
						return
					}
				}
			}
		})
	}
	if rows == nil {
		t.Fatal("no unit with a right and a wrong prediction of one class")
	}
	baseline := filepath.Join(tmp, "b.json")
	if code, _, stderr := runCLI("check", "--baseline", baseline, "--results", ref, "--update"); code != 0 {
		t.Fatalf("check --update: %d %s", code, stderr)
	}
	if code, stdout, stderr := runCLI("check", "--baseline", baseline, "--results", cur); code != 0 {
		t.Fatalf("the accuracy gate should pass the swap: %d %s %s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI("check", "--predictions", "--results", cur, "--against", ref)
	if code == 0 || !strings.Contains(stdout, "2 of ") || !strings.Contains(stderr, "predictions changed") {
		t.Fatalf("check --predictions: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, r := range rows {
		if !strings.Contains(stdout, " "+r+" ") {
			t.Errorf("row %s not listed:\n%s", r, stdout)
		}
	}
	if code, _, stderr := runCLI("check", "--predictions", "--results", cur); code == 0 || !strings.Contains(stderr, "--against") {
		t.Errorf("--predictions without --against: %d %q", code, stderr)
	}
}

// TestStoredRules: rules --results prints a stored model's rules without
// refitting: the representative fold by default (median accuracy), a
// chosen fold, JSON with names, and a clear refusal without artifacts.
func TestStoredRules(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	out, off := filepath.Join(tmp, "out"), filepath.Join(tmp, "off")
	for _, args := range [][]string{{"--out", out}, {"--out", off, "--no-artifacts"}} {
		if code, _, stderr := runCLI(append([]string{"run", "--spec", spec, "-j", "1", "--no-report"}, args...)...); code != 0 {
			t.Fatalf("run: %d %s", code, stderr)
		}
	}
	recs := must(results.ReadFile(filepath.Join(out, "results.csv")))
	rep, ok := results.Representative(recs)
	if !ok {
		t.Fatal("no selected row")
	}
	data := filepath.Join(tmp, "mine.csv")
	code, stdout, stderr := runCLI("rules", "--results", out, "--dataset", data, "--method", "cart")
	want := "fold " + itoa(rep.Fold) + ", the representative fold"
	if code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "IF ") {
		t.Fatalf("rules --results: exit %d, want %q in\n%s\n%s", code, want, stdout, stderr)
	}
	code, stdout, stderr = runCLI("rules", "--results", out, "--dataset", data, "--method", "cart", "--fold", "1", "--json")
	var got rulesJSON
	if code != 0 || json.Unmarshal([]byte(stdout), &got) != nil {
		t.Fatalf("rules --json: exit %d %q %q", code, stdout, stderr)
	}
	if *got.Fold != 1 || got.Representative || len(got.Rules) == 0 || strings.Join(got.Classes, ",") != "a,b" || !strings.Contains(stdout, "<=") {
		t.Errorf("rules --json of fold 1: %+v", got)
	}
	// The clean protocol standardises each fold; the rules print in the
	// data's units: x1 takes the even values 0-12 and x2 the values 0-10,
	// so every threshold, a midpoint between two values, is a multiple of
	// 0.5 in [0, 12], printed to 4 significant digits; each rule ends with
	// its leaf's coverage and confidence.
	threshold := regexp.MustCompile(`x[12] (?:<=|>) (-?[0-9.]+)`)
	if !strings.Contains(got.RuleUnits, "the data's own units") {
		t.Errorf("rule units %q", got.RuleUnits)
	}
	thresholds := 0
	for _, rule := range got.Rules {
		if !regexp.MustCompile(`  \[coverage [01]\.\d{3}, confidence [01]\.\d{3}\]$`).MatchString(rule) {
			t.Errorf("rule %q: no coverage and confidence", rule)
		}
		for _, m := range threshold.FindAllStringSubmatch(rule, -1) {
			thresholds++
			v, err := strconv.ParseFloat(m[1], 64)
			if err != nil || v < 0 || v > 12 || v*2 != math.Round(v*2) || learn.ReadableNumber(v) != m[1] {
				t.Errorf("rule %q: threshold %s is not in the data's units (a multiple of 0.5 in [0, 12], 4 digits)", rule, m[1])
			}
		}
	}
	if thresholds == 0 {
		t.Errorf("no threshold in the rules %q", got.Rules)
	}
	for _, r := range recs {
		if r.Fold == 1 && r.Selected && r.Rules != len(got.Rules) {
			t.Errorf("fold 1 has %d rules in results.csv, %d printed", r.Rules, len(got.Rules))
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--results", off, "--dataset", data, "--method", "cart"}, "--no-artifacts"},
		{[]string{"--results", out, "--dataset", data, "--method", "fgrt"}, `no results of method "fgrt"`},
		{[]string{"--results", out, "--dataset", "other", "--method", "cart"}, `no results of dataset "other"`},
		{[]string{"--results", out, "--dataset", data, "--method", "cart", "--fold", "7"}, "no fold 7"},
		{[]string{"--results", out, "--dataset", data}, "--method"},
	} {
		code, _, stderr := runCLI(append([]string{"rules"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("rules %v: exit %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
}
