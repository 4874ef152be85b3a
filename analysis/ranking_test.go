package analysis

import (
	"math"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
)

// TestRankings ranks methods computed by hand. Under paper: cells are means
// over folds of the selected rows (an unselected point stays out), a
// dataset one method lacks is left out, a tie shares its ranks and counts
// as best for each tied method, and ties of mean rank keep the display
// order. Under clean: one method, nothing to rank. Under holdout: one
// dataset, too few for a test but ranked all the same. A selected grid
// variant (b@grid) is a method of its own, as the report's tables show it.
func TestRankings(t *testing.T) {
	row := func(protocol, dataset, method string, acc float64, selected bool) results.Record {
		return results.Record{Protocol: protocol, Dataset: dataset, Method: method, Accuracy: acc, Selected: selected, Selection: "fixed"}
	}
	recs := []results.Record{
		// d1: a (0.8+1.0)/2 = 0.9 ties c 0.9, b 0.7 -> a 1.5, c 1.5, b 3.
		row("paper", "d1", "a", 0.8, true), row("paper", "d1", "a", 1.0, true),
		row("paper", "d1", "b", 0.7, true), row("paper", "d1", "c", 0.9, true),
		row("paper", "d1", "a", 0.0, false), // an unselected point
		// d2: b 1, c 2, a 3.
		row("paper", "d2", "a", 0.6, true), row("paper", "d2", "b", 0.8, true), row("paper", "d2", "c", 0.7, true),
		// d3: c 1, a 2, b 3.
		row("paper", "d3", "a", 0.5, true), row("paper", "d3", "b", 0.4, true), row("paper", "d3", "c", 0.6, true),
		// d4 lacks c: left out.
		row("paper", "d4", "a", 0.5, true), row("paper", "d4", "b", 0.9, true),
		// One method only: no ranking.
		row("clean", "d1", "a", 0.9, true),
		// One dataset: b@grid 1, a 2.5 (tied with z), z 2.5; a before z in
		// display order.
		row("holdout", "d1", "z", 0.7, true), row("holdout", "d1", "a", 0.7, true), row("holdout", "d1", "b@grid", 0.8, true),
	}
	for i := range recs {
		recs[i].Fold = i // one row per fold of a cell
	}
	a, err := Compute(recs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The fold indices give every row its own fold, so cell means are as
	// written above; a.Protocols orders paper, clean, then the others.
	want := []Ranking{
		{Protocol: "paper", Datasets: []string{"d1", "d2", "d3"}, Excluded: []string{"d4"}, Methods: []Ranked{
			{Label: "c", Display: "c", MeanRank: 1.5, BestOn: 2},
			{Label: "a", Display: "a", MeanRank: 6.5 / 3, BestOn: 1},
			{Label: "b", Display: "b", MeanRank: 7.0 / 3, BestOn: 1},
		}},
		// One method: no test, but it ranks first on each of its datasets.
		{Protocol: "clean", Datasets: []string{"d1"}, Methods: []Ranked{{Label: "a", Display: "a", MeanRank: 1, BestOn: 1}}},
		{Protocol: "holdout", Datasets: []string{"d1"}, Methods: []Ranked{
			{Label: "b@grid", Display: "b@grid", MeanRank: 1, BestOn: 1},
			{Label: "a", Display: "a", MeanRank: 2.5},
			{Label: "z", Display: "z", MeanRank: 2.5},
		}},
	}
	if a.Headline != "clean" {
		t.Errorf("headline protocol %q, want clean", a.Headline)
	}
	if len(a.Rankings) != len(want) {
		t.Fatalf("%d rankings, want %d", len(a.Rankings), len(want))
	}
	for i, w := range want {
		g := a.Rankings[i]
		if g.Protocol != w.Protocol || !equalStrings(g.Datasets, w.Datasets) || !equalStrings(g.Excluded, w.Excluded) || len(g.Methods) != len(w.Methods) {
			t.Errorf("%s: %+v, want %+v", w.Protocol, g, w)
			continue
		}
		for j, wm := range w.Methods {
			gm := g.Methods[j]
			same := gm.MeanRank == wm.MeanRank || math.Abs(gm.MeanRank-wm.MeanRank) < 1e-12 || (math.IsNaN(gm.MeanRank) && math.IsNaN(wm.MeanRank))
			if gm.Label != wm.Label || gm.Display != wm.Display || gm.BestOn != wm.BestOn || !same {
				t.Errorf("%s #%d: %+v, want %+v", w.Protocol, j+1, gm, wm)
			}
		}
	}
	// Where the tests ran, the ranking's mean ranks are the Friedman
	// test's: one computation behind the ranks table, the CD diagram and
	// the headline.
	tp, _ := a.TestsOf("paper")
	for _, m := range a.Rankings[0].Methods {
		if m.MeanRank != tp.MeanRank(m.Label) {
			t.Errorf("paper %s: ranking %v, Friedman %v", m.Label, m.MeanRank, tp.MeanRank(m.Label))
		}
	}
	// A protocol without a test (one method) has no rank rows.
	tc, _ := a.TestsOf("clean")
	if rows, ok := a.RankRows(tc); ok {
		t.Errorf("clean: rank rows %+v, want none", rows)
	}
	// The compared methods are those with cells, sweep-only labels not.
	sweep := append(recs, results.Record{Protocol: "paper", Dataset: "d1", Method: "s@ofat", Selection: "sweep", Accuracy: 0.5})
	if a, err = Compute(sweep, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := a.ComparedMethods(); !equalStrings(got, []string{"a", "b", "b@grid", "c", "z"}) || len(a.Methods) != 6 {
		t.Errorf("compared %v of %d labels, want a b b@grid c z of 6", got, len(a.Methods))
	}
}

// TestRankRows: the ranks table's rows follow the ranking, carry the
// distance to the best mean rank, mark the best and its ties, and say
// which methods lie within the Nemenyi CD (α = 0.05) of the best.
func TestRankRows(t *testing.T) {
	var recs []results.Record
	// Four datasets, each ranking a 1, b 2, c 3, except d4 where a and b
	// tie: a (1+1+1+1.5)/4 = 1.125, b (2+2+2+1.5)/4 = 1.875, c 3.
	// CD05 = 2.343·sqrt(3·4/(6·4)) ≈ 1.657: b is within it, c is not.
	for i, d := range []string{"d1", "d2", "d3", "d4"} {
		accB := 0.8
		if d == "d4" {
			accB = 0.9
		}
		for j, m := range []struct {
			name string
			acc  float64
		}{{"c", 0.7}, {"b", accB}, {"a", 0.9}} {
			recs = append(recs, results.Record{Protocol: "clean", Dataset: d, Method: m.name, Accuracy: m.acc, Selected: true, Selection: "fixed", Fold: 3*i + j})
		}
	}
	a, err := Compute(recs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := a.TestsOf("clean")
	if math.Abs(ts.CD05-1.657) > 0.001 {
		t.Fatalf("CD05 %v, want 1.657", ts.CD05)
	}
	rows, ok := a.RankRows(ts)
	want := []RankRow{{"a", 1.125, 0, true, true}, {"b", 1.875, 0.75, false, true}, {"c", 3, 1.875, false, false}}
	if !ok || len(rows) != len(want) {
		t.Fatalf("rank rows %+v (%v), want %+v", rows, ok, want)
	}
	for i, w := range want {
		g := rows[i]
		if g.Method != w.Method || math.Abs(g.AvgRank-w.AvgRank) > 1e-12 || math.Abs(g.DiffToBest-w.DiffToBest) > 1e-12 || g.TiedBest != w.TiedBest || g.WithinCD05 != w.WithinCD05 {
			t.Errorf("row %d: %+v, want %+v", i+1, g, w)
		}
	}
	// Tests whose methods the ranking does not cover give no rows.
	ts.Methods = append(ts.Methods, "x")
	if rows, ok := a.RankRows(ts); ok {
		t.Errorf("a method outside the ranking: rows %+v, want none", rows)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
