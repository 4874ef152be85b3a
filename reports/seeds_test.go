package reports

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"

	"github.com/fgrtbench/fgrtbench/results"
)

// holdoutRecords: FGA (stochastic) on appendicitis with four seeds
// (17, 19, 19, 20 of 22; the paper's 90.91 % is 20/22), RIPPER on wine with
// two seeds (the paper's 86.20 is above both), and CART (deterministic)
// with two repeats that must not count as seeds.
func holdoutRecords() []results.Record {
	var recs []results.Record
	add := func(ds, m string, nTest int, correct ...int) {
		for r, c := range correct {
			recs = append(recs, results.Record{Protocol: "holdout", Dataset: ds, Method: m, Selected: true, Selection: "fixed",
				Repeat: r, Seed: 33, NTest: nTest, Correct: c, Accuracy: float64(c) / float64(nTest),
				Key: "k/" + ds + "/" + m + "/" + string(rune('0'+r))})
		}
	}
	add("appendicitis", "fga", 22, 17, 19, 19, 20)
	add("wine", "ripper", 36, 29, 30)
	add("wine", "cart", 36, 32, 32)
	return recs
}

func TestSeedSpreads(t *testing.T) {
	stochastic := map[string]bool{"fga": true, "ripper": true}
	sp := analysis.SeedSpreads(holdoutRecords(), nil, stochastic)
	if len(sp) != 2 {
		t.Fatalf("%d spreads, want 2 (CART is deterministic)", len(sp))
	}
	fga, rip := sp[0], sp[1]
	if fga.Method != "fga" || rip.Method != "ripper" {
		t.Fatalf("order %s, %s", fga.Method, rip.Method)
	}
	cases := []struct {
		name      string
		got, want float64
	}{
		{"fga mean", fga.Mean, 75.0 / 88},
		{"fga min", fga.Min, 17.0 / 22},
		{"fga median", fga.Median, 19.0 / 22},
		{"fga max", fga.Max, 20.0 / 22},
		{"fga paper", fga.Paper, 90.91},
		{"fga percentile", fga.Percentile, 100 * 3.5 / 4}, // three below, one tie
		{"ripper percentile", rip.Percentile, 100},
	}
	for _, c := range cases {
		if d := c.got - c.want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !fga.Inside || rip.Inside {
		t.Errorf("inside: fga %v (paper = max), ripper %v (paper above)", fga.Inside, rip.Inside)
	}
	if w := rip.Where(); w != "above our 2 seeds' range, percentile 100" {
		t.Errorf("ripper: %q", w)
	}
	tab := SeedTable(sp, "holdout", paperMethods)
	md := string(tab.Markdown())
	for _, want := range []string{"86.36 (19/22)", "77.27 (17/22)", "inside our 4 seeds' range, percentile 88", "81.94 (29.5/36)"} {
		if !strings.Contains(md, want) {
			t.Errorf("seed table lacks %q:\n%s", want, md)
		}
	}
	if got := csvField(t, tab, tab.CSVRows[0], "correct_per_seed"); got != "17 19 19 20" {
		t.Errorf("correct per seed %q", got)
	}
	// The accuracy table places the paper's value among the seeds instead
	// of a bare difference, for stochastic methods only.
	a, err := analysis.Compute(holdoutRecords(), analysis.Options{Methods: paperMethods})
	if err != nil {
		t.Fatal(err)
	}
	tab = accuracyTable(a, "holdout", newSpreadIndex(sp), newLegend())
	acc := string(tab.Markdown())
	for _, want := range []string{"85.23 ± 4.95 ‡", "Under holdout, the paper's FGA column was counted on this very split"} {
		if !strings.Contains(acc, want) {
			t.Errorf("accuracy table lacks %q:\n%s", want, acc)
		}
	}
}

// TestHoldoutPlacementInDifferences: a holdout-only report says where the
// paper's values fall among our seeds in its "differ from the paper"
// section, naming the pairs outside the range, instead of claiming there is
// nothing to compare.
func TestHoldoutPlacementInDifferences(t *testing.T) {
	a := analysisOf(t, holdoutRecords(), analysis.Options{Methods: paperMethods, Stochastic: map[string]bool{"fga": true, "ripper": true}})
	rep, err := Render(Options{Dir: t.TempDir(), Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	md := string(rep.Markdown)
	want := "Under the holdout protocol (the split of the paper's FGA column), the paper's value lies inside our seeds' range on 1 of 2 dataset–method pairs; outside it on: wine RIPPER (paper 86.20, above our 2 seeds' range, percentile 100)."
	for _, w := range []string{want} {
		if !strings.Contains(md, w) {
			t.Errorf("REPORT.md lacks %q", w)
		}
	}
	if strings.Index(md, want) > strings.Index(md, "## Tables") {
		t.Error("the holdout placement is not in the differences section")
	}
}

// TestSeedMeanIsCellMean: under cross-validation with folds of unequal
// size, a seed's accuracy is the mean over its folds (as the cell's and the
// paper's), so the accuracy table's Markdown cell (mean over seeds) shows
// the number its CSV row, mean row and paper check use. Pooling a seed's
// counts instead gave 60.00 where the CSV said 58.33.
func TestSeedMeanIsCellMean(t *testing.T) {
	var recs []results.Record
	// Seed 0: 3/3 and 0/2 (pooled 60 %, fold mean 50 %); seed 1: 1/3 and
	// 2/2 (pooled 60 %, fold mean 66.67 %).
	for i, f := range []struct{ repeat, fold, correct, n int }{{0, 0, 3, 3}, {0, 1, 0, 2}, {1, 0, 1, 3}, {1, 1, 2, 2}} {
		recs = append(recs, results.Record{Protocol: "clean", Dataset: "appendicitis", Method: "fga", Selected: true, Selection: "fixed",
			Repeat: f.repeat, Fold: f.fold, NTest: f.n, Correct: f.correct, Accuracy: float64(f.correct) / float64(f.n),
			Key: "k" + string(rune('0'+i))})
	}
	// Shuffled records give the same bits.
	rev := append([]results.Record(nil), recs...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	stochastic := map[string]bool{"fga": true}
	sp := analysis.SeedSpreads(recs, nil, stochastic)
	if back := analysis.SeedSpreads(rev, nil, stochastic); len(sp) != 1 || len(back) != 1 || sp[0].Mean != back[0].Mean || sp[0].Std != back[0].Std {
		t.Fatalf("spreads %+v, shuffled %+v", sp, back)
	}
	cells, err := analysis.Aggregate(recs)
	if err != nil {
		t.Fatal(err)
	}
	if d := sp[0].Mean - cells[0].Accuracy; d > 1e-12 || d < -1e-12 {
		t.Errorf("mean over seeds %v, cell accuracy %v", sp[0].Mean, cells[0].Accuracy)
	}
	a, err := analysis.Compute(recs, analysis.Options{Methods: paperMethods})
	if err != nil {
		t.Fatal(err)
	}
	tab := accuracyTable(a, "clean", newSpreadIndex(sp), newLegend())
	if md := string(tab.Markdown()); !strings.Contains(md, "58.33 ± 8.33 ‡") {
		t.Errorf("accuracy table lacks 58.33 ± 8.33 ‡ (mean ± sd over seeds):\n%s", md)
	}
	if csv := string(tab.CSV()); !strings.Contains(csv, ",58.333333,") {
		t.Errorf("accuracy CSV lacks 58.333333:\n%s", csv)
	}
}
