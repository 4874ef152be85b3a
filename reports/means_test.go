package reports

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// tableNamed returns the report's table of that name.
func tableNamed(t *testing.T, rep *Report, name string) Table {
	t.Helper()
	for _, tb := range rep.Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %s", name)
	return Table{}
}

// meanRow returns the grid row whose Dataset cell is "Mean".
func meanRow(t *testing.T, tb Table) []Entry {
	t.Helper()
	for _, r := range tb.Rows {
		if gridCell(t, tb, r, "Dataset").Text == "Mean" {
			return r
		}
	}
	t.Fatalf("%s: no Mean row", tb.Name)
	return nil
}

// leadingNumber parses "81.23 (2 datasets)" or "+3.44" as a number.
func leadingNumber(t *testing.T, s string) float64 {
	t.Helper()
	f, _, _ := strings.Cut(s, " ")
	v, err := strconv.ParseFloat(f, 64)
	if err != nil {
		t.Fatalf("Mean cell %q: %v", s, err)
	}
	return v
}

// checkMeanRows compares the accuracy and protocol-gap tables' Mean rows
// (Markdown and CSV, number and bold) and the complexity tables' averages
// with the analysis.
func checkMeanRows(t *testing.T, a *analysis.Analysis, rep *Report) {
	t.Helper()
	for _, p := range a.Protocols {
		tb := tableNamed(t, rep, "accuracy-"+p)
		row := meanRow(t, tb)
		methods := analysis.MethodsOf(analysis.FilterProtocol(a.Cells, p), a.Presentation())
		for _, m := range methods {
			mm, ok := a.MeanOf(p, m)
			if !ok {
				t.Fatalf("%s: no mean of %s", p, m)
			}
			e := gridCell(t, tb, row, a.Display(m))
			if got, want := leadingNumber(t, e.Text), mm.Accuracy*100; got != mustRound(want) || e.Bold != mm.Best {
				t.Errorf("%s Mean of %s: %q bold %v, the analysis has %v best %v", tb.Name, m, e.Text, e.Bold, want, mm.Best)
			}
		}
		for _, r := range tb.CSVRows {
			field := func(name string) string { return csvField(t, tb, r, name) }
			if field("dataset") != "mean" {
				for _, c := range a.Cells {
					if c.Protocol == p && c.Dataset == field("dataset") && c.Method == field("method") && field("best") != strconv.FormatBool(c.BestOnDataset) {
						t.Errorf("%s: %s/%s best %s, the analysis has %v", tb.Name, field("dataset"), field("method"), field("best"), c.BestOnDataset)
					}
				}
				continue
			}
			mm, _ := a.MeanOf(p, field("method"))
			if field("accuracy_mean") != csvNum(mm.Accuracy*100) || field("n") != strconv.Itoa(mm.Datasets) || field("best") != strconv.FormatBool(mm.Best) {
				t.Errorf("%s CSV mean row %v disagrees with the analysis %+v", tb.Name, r, mm)
			}
		}
	}
	for _, p := range a.Protocols {
		tb := tableNamed(t, rep, "complexity-"+p)
		rows := 0
		for _, r := range tb.CSVRows {
			method := csvField(t, tb, r, "method")
			cm, ok := a.ComplexityOf(p, method)
			if !ok {
				continue
			}
			rows++
			want := []string{strconv.Itoa(cm.Datasets), csvNum(cm.Rules), csvNum(cm.AntecedentsPerRule), csvNum(cm.RulebaseSize), csvNum(cm.Leaves), csvNum(cm.InternalNodes)}
			var got []string
			for _, name := range []string{"datasets", "rules", "antecedents_per_rule", "rulebase_size", "leaves", "internal_nodes"} {
				got = append(got, csvField(t, tb, r, name))
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s row of %s: %v, the analysis has %v", tb.Name, method, got, want)
			}
		}
		if rows == 0 {
			t.Errorf("%s: no row of the analysis's methods", tb.Name)
		}
	}
	gap := tableNamed(t, rep, "protocol-gap")
	row := meanRow(t, gap)
	for _, h := range gap.Header[1:] {
		e := gridCell(t, gap, row, h)
		var g analysis.GapMean
		for _, c := range a.GapMeans {
			if a.Display(c.Method) == h {
				g = c
			}
		}
		if got := leadingNumber(t, e.Text); got != mustRound(g.GapPP) || e.Bold {
			t.Errorf("protocol-gap Mean of %s: %q bold %v, the analysis has %v", h, e.Text, e.Bold, g.GapPP)
		}
	}
}

// mustRound rounds as the tables print: two decimals.
func mustRound(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 2, 64), 64)
	return r
}

// TestMeanRowsAreTheAnalysis renders the fixture and checks each Mean row
// against the analysis; then it alters the analysis's means and renders
// again: a view that computed its own mean would keep the old number.
func TestMeanRowsAreTheAnalysis(t *testing.T) {
	a := analysisOf(t, fixtureRecords(), analysis.Options{Methods: paperMethods})
	if len(a.Means) == 0 || len(a.GapMeans) == 0 {
		t.Fatalf("the fixture's analysis has %d means and %d gap means", len(a.Means), len(a.GapMeans))
	}
	render := func() *Report {
		rep, err := Render(Options{Dir: t.TempDir(), Title: "Fixture report", Analysis: a, Facts: fixtureFacts, Datasets: fixtureDatasets, Figures: fixtureFigures})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	checkMeanRows(t, a, render())

	// Shift every mean and move the bold: the tables must follow.
	for i := range a.Means {
		a.Means[i].Accuracy -= 0.01 * float64(i+1)
		a.Means[i].Best = !a.Means[i].Best
	}
	for i := range a.Cells {
		a.Cells[i].BestOnDataset = !a.Cells[i].BestOnDataset
	}
	for i := range a.Complexity {
		a.Complexity[i].Rules += 7
		a.Complexity[i].InternalNodes /= 2
	}
	for i := range a.GapMeans {
		a.GapMeans[i].GapPP += 1.5
	}
	fgrtPaper := 0.5
	for i, m := range a.Means {
		if m.Protocol == "paper" && m.Method == "fgrt" {
			a.Means[i].PaperAccuracy = &fgrtPaper
		}
	}
	rep := render()
	checkMeanRows(t, a, rep)
	paperRow := false
	paperTable := tableNamed(t, rep, "paper-paper")
	for _, r := range paperTable.Rows {
		if gridCell(t, paperTable, r, "Dataset").Text == "Mean" && gridCell(t, paperTable, r, "Method").Text == a.Display("fgrt") {
			paperRow = gridCell(t, paperTable, r, "Ours (%)").Text == "50.00"
		}
	}
	if !paperRow {
		t.Error("the paper table's Mean row for FGRT does not show the analysis's paper_datasets_accuracy (50.00)")
	}
}

// TestRanksTableIsTheAnalysis: the ranks table lists the analysis's
// ranking in its order, and marks within the critical difference exactly
// the best method and the analysis's within_cd05_of_best.
func TestRanksTableIsTheAnalysis(t *testing.T) {
	a := analysisOf(t, fixtureRecords(), analysis.Options{Methods: paperMethods})
	rep, err := Render(Options{Dir: t.TempDir(), Title: "Fixture report", Analysis: a, Facts: fixtureFacts, Datasets: fixtureDatasets, Figures: fixtureFigures})
	if err != nil {
		t.Fatal(err)
	}
	for _, tests := range a.Tests {
		if tests.NA != "" {
			continue
		}
		rk, _ := a.RankingOf(tests.Protocol)
		tb := tableNamed(t, rep, "ranks-"+tests.Protocol)
		if len(tb.CSVRows) != len(rk.Methods) {
			t.Fatalf("%s: %d rows, the ranking has %d methods", tb.Name, len(tb.CSVRows), len(rk.Methods))
		}
		within := 0
		for i, r := range tb.CSVRows {
			method, within05 := csvField(t, tb, r, "method"), csvField(t, tb, r, "within_cd05_of_best")
			if method != rk.Methods[i].Label {
				t.Errorf("%s row %d: %s, the ranking has %s", tb.Name, i, method, rk.Methods[i].Label)
			}
			want := method == tests.Best || slices.Contains(tests.WithinCD05, method)
			if within05 != strconv.FormatBool(want) {
				t.Errorf("%s: %s within CD %s, the analysis says %v", tb.Name, method, within05, want)
			}
			if within05 == "true" {
				within++
			}
		}
		if within != len(tests.WithinCD05)+1 {
			t.Errorf("%s: %d methods within CD, the analysis has the best and %d", tb.Name, within, len(tests.WithinCD05))
		}
	}
}

// TestPartitionCountsAreTheAnalysis: the partition table's counts are the
// analysis's partition effect, and follow it when it is altered.
func TestPartitionCountsAreTheAnalysis(t *testing.T) {
	a := analysisOf(t, fixtureRecords(), analysis.Options{Methods: paperMethods})
	e, ok := a.PartitionEffectOf("paper")
	if !ok || e.Datasets != 4 || e.Improved != 3 || e.Unchanged != 1 || e.PaperDatasets != 3 || e.PaperImproved != 1 || e.PaperUnchanged != 2 {
		t.Fatalf("the fixture's paper partition effect is %+v", e)
	}
	note := func() string { return PartitionTable(a, "paper").Notes[0] }
	if want := "Ours: FGRT* better on 3, unchanged on 1 (|Δ| < 0.005 pp), worse on 0 of 4 datasets. Paper (on the same datasets): better on 1, unchanged on 2, worse on 0."; note() != want {
		t.Errorf("note %q, want %q", note(), want)
	}
	for i := range a.Partition {
		if a.Partition[i].Protocol == "paper" {
			a.Partition[i].Improved, a.Partition[i].Worse, a.Partition[i].PaperWorse = 1, 2, 5
		}
	}
	if want := "Ours: FGRT* better on 1, unchanged on 1 (|Δ| < 0.005 pp), worse on 2 of 4 datasets. Paper (on the same datasets): better on 1, unchanged on 2, worse on 5."; note() != want {
		t.Errorf("altered analysis: note %q, want %q", note(), want)
	}
}

// TestPairDecisionsAreTheAnalysis: the pairwise table's significance and
// the per-dataset table's count of decided comparisons are the analysis's
// (altered here: the tables must follow).
func TestPairDecisionsAreTheAnalysis(t *testing.T) {
	a := analysisOf(t, fixtureRecords(), analysis.Options{Methods: paperMethods})
	for ti := range a.Tests {
		for pi := range a.Tests[ti].Pairs {
			pr := &a.Tests[ti].Pairs[pi]
			pr.Significant = pi%2 == 0
			for fi := range pr.Folds {
				pr.Folds[fi].Decisive = true
			}
		}
	}
	rep, err := Render(Options{Dir: t.TempDir(), Title: "Fixture report", Analysis: a, Facts: fixtureFacts, Datasets: fixtureDatasets, Figures: fixtureFigures})
	if err != nil {
		t.Fatal(err)
	}
	for _, tests := range a.Tests {
		if tests.NA != "" || len(tests.Pairs) == 0 {
			continue
		}
		tb := tableNamed(t, rep, "pairwise-"+tests.Protocol)
		sig := 0
		for i, r := range tb.CSVRows {
			if sig05 := csvField(t, tb, r, "significant_05"); sig05 != strconv.FormatBool(tests.Pairs[i].Significant) {
				t.Errorf("%s %s vs %s: significant %s, the analysis has %v", tb.Name, csvField(t, tb, r, "a"), csvField(t, tb, r, "b"), sig05, tests.Pairs[i].Significant)
			}
			if tests.Pairs[i].Significant {
				sig++
			}
		}
		if !strings.Contains(tb.Summary, "; "+strconv.Itoa(sig)+" significant after Holm") {
			t.Errorf("%s summary %q does not count %d significant pairs", tb.Name, tb.Summary, sig)
		}
		folds := tableNamed(t, rep, "folds-"+tests.Protocol)
		if n := len(folds.CSVRows); !strings.Contains(folds.Summary, "in "+strconv.Itoa(n)+" of them") {
			t.Errorf("%s summary %q does not count all %d comparisons as decided", folds.Name, folds.Summary, n)
		}
	}
}
