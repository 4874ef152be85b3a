package reports

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestMissingCellsNamedInReport injects a missing unit (method b has no
// result on d3) and checks that REPORT.md says the tests were refused and
// names the cell, in the significance line and the statistics notes, and
// shows no Friedman table or p-value for that protocol.
func TestMissingCellsNamedInReport(t *testing.T) {
	acc := map[string]map[string]float64{
		"a": {"d1": 0.9, "d2": 0.8, "d3": 0.7},
		"b": {"d1": 0.8, "d2": 0.7},
		"c": {"d1": 0.7, "d2": 0.9, "d3": 0.5},
	}
	var recs []results.Record
	for m, byDS := range acc {
		for d, v := range byDS {
			for f := 0; f < 5; f++ {
				recs = append(recs, results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
					Accuracy: v, BalancedAccuracy: v, Rules: 2, Antecedents: 3, RulebaseSize: 3, Key: m + d})
			}
		}
	}
	a, err := analysis.Compute(recs, analysis.Options{Name: "missing", Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Render(Options{Dir: t.TempDir(), Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	md := string(rep.Markdown)
	for _, want := range []string{
		"Significance: n/a — the clean protocol lacks 1 of 9 results (dataset/method: d3/b)",
		"No statistics for the clean protocol (n/a): the clean protocol lacks 1 of 9 results (dataset/method: d3/b)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	for _, bad := range []string{"Friedman test and Nemenyi", "Permutation test p", "differ significantly"} {
		if strings.Contains(md, bad) {
			t.Errorf("REPORT.md shows %q for a protocol with missing cells", bad)
		}
	}
}

// TestFriedmanTableAllTied: a study in which every method ties on every
// dataset prints the tie-corrected χ² and its p-value as "n/a" (scipy's
// NaN), never 0.0000 with p = 1.0000, and writes them empty to CSV.
func TestFriedmanTableAllTied(t *testing.T) {
	var recs []results.Record
	for _, m := range []string{"a", "b", "c"} {
		for i, d := range []string{"d1", "d2", "d3"} {
			for f := 0; f < 5; f++ {
				v := 0.6 + 0.1*float64(i)
				recs = append(recs, results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
					Accuracy: v, BalancedAccuracy: v, Rules: 2, Antecedents: 3, RulebaseSize: 3, Key: m + d})
			}
		}
	}
	a, err := analysis.Compute(recs, analysis.Options{Name: "tied", Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := a.TestsOf("clean")
	fr := friedmanTable(ts)
	got := map[string][2]string{}
	for i, row := range fr.Rows {
		got[gridCell(t, fr, row, "Statistic").Text] = [2]string{gridCell(t, fr, row, "Value").Text, csvField(t, fr, fr.CSVRows[i], "value")}
	}
	for _, name := range []string{"Friedman χ², tie-corrected (scipy)", "Friedman p, tie-corrected"} {
		if got[name] != [2]string{"n/a", ""} {
			t.Errorf("%s: shown/CSV %q, want n/a and empty", name, got[name])
		}
	}
	if got["Friedman χ² (df 2)"][0] != "0.0000" {
		t.Errorf("plain χ²: %q, want 0.0000", got["Friedman χ² (df 2)"][0])
	}
}

// TestTerminalPrintsStatsSummary: the terminal prints each protocol's
// plain-language summary, the same sentences as analysis.Tests.Summary,
// wrapped at 100 columns.
func TestTerminalPrintsStatsSummary(t *testing.T) {
	var recs []results.Record
	for i, m := range []string{"a", "b", "c"} {
		for j, d := range []string{"d1", "d2", "d3"} {
			for f := 0; f < 5; f++ {
				v := 0.9 - 0.1*float64(i) + 0.01*float64(j) + 0.001*float64(f)
				recs = append(recs, results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
					Accuracy: v, BalancedAccuracy: v, Rules: 2, Antecedents: 3, RulebaseSize: 3, Key: m + d})
			}
		}
	}
	a, err := analysis.Compute(recs, analysis.Options{Name: "term", Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteHeadline(&b, a, "")
	out := b.String()
	ts, _ := a.TestsOf("clean")
	if len(ts.Summary) == 0 || !strings.Contains(out, "statistics, clean protocol:\n") {
		t.Fatalf("no summary on the terminal:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out[strings.Index(out, "statistics, clean protocol:"):]), " ")
	if !strings.Contains(flat, strings.Join(strings.Fields(strings.Join(ts.Summary, " ")), " ")) {
		t.Errorf("the terminal's summary is not the analysis's:\n%s\nwant %q", out, ts.Summary)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "    ") && len([]rune(line)) > 104 && strings.Contains(line, " ") && !strings.Contains(line, "  ") {
			t.Errorf("line over 100 columns: %q", line)
		}
	}
}

// TestAllPairsSecondaryTable: with a reference the pairwise table compares
// it with the k − 1 others, and every pair stays available as a linked
// secondary table with its own Holm correction.
func TestAllPairsSecondaryTable(t *testing.T) {
	var recs []results.Record
	for i, m := range []string{"a", "b", "c", "d"} {
		for j, d := range []string{"d1", "d2", "d3", "d4", "d5"} {
			for f := 0; f < 5; f++ {
				v := 0.9 - 0.05*float64(i) + 0.01*float64((i*3+j)%4) + 0.001*float64(f)
				recs = append(recs, results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
					Accuracy: v, BalancedAccuracy: v, Rules: 2, Antecedents: 3, RulebaseSize: 3, Key: m + d})
			}
		}
	}
	a, err := analysis.Compute(recs, analysis.Options{Name: "all", Samples: 500, Reference: "c"})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := a.TestsOf("clean")
	rows := map[string]int{}
	linked := map[string]bool{}
	for _, tb := range StatisticsTables(ts, a) {
		rows[tb.Name], linked[tb.Name] = len(tb.Rows), tb.Linked
	}
	if rows["pairwise-clean"] != 3 || rows["pairwise-all-clean"] != 6 || !linked["pairwise-all-clean"] {
		t.Errorf("tables %v (linked %v): want 3 comparisons with c and 6 pairs, linked", rows, linked)
	}
}

// TestOneDatasetHeadlinesFolds: a 1-dataset study does not print
// "Significance: n/a"; its significance line headlines the fold-level
// tests and the per-dataset table is written.
func TestOneDatasetHeadlinesFolds(t *testing.T) {
	var recs []results.Record
	for i, m := range []string{"a", "b"} {
		for f := 0; f < 5; f++ {
			v := 0.9 - 0.1*float64(i) + 0.01*float64(f*i)
			recs = append(recs, results.Record{Protocol: "clean", Dataset: "d1", Method: m, Selected: true, Selection: "fixed", Fold: f,
				Accuracy: v, BalancedAccuracy: v, Rules: 2, Antecedents: 3, RulebaseSize: 3, Key: m})
		}
	}
	a, err := analysis.Compute(recs, analysis.Options{Name: "one", Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Render(Options{Dir: t.TempDir(), Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	md := string(rep.Markdown)
	if strings.Contains(md, "Significance: n/a") || !strings.Contains(md, "**Significance:** With 1 dataset, ranks over datasets are not evidence") ||
		!strings.Contains(md, "a vs b on d1: +8.00 pp over 5 folds") || !strings.Contains(md, "Per-dataset comparisons over cross-validation folds, clean protocol") {
		t.Errorf("REPORT.md of one dataset:\n%s", md)
	}
}
