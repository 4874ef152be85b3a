package cli

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
)

// TestHeadline ranks three methods on three datasets computed by hand:
// cells are means over folds of the selected rows; grid variants ("@"),
// unselected sweep points and a dataset one method lacks stay out; a tie
// shares its ranks and counts as best for each tied method; a protocol
// with one method has nothing to rank.
func TestHeadline(t *testing.T) {
	row := func(protocol, dataset, method string, acc float64, selected bool) results.Record {
		return results.Record{Protocol: protocol, Dataset: dataset, Method: method, Accuracy: acc, Selected: selected}
	}
	recs := []results.Record{
		// d1: a (0.8+1.0)/2 = 0.9 ties c 0.9, b 0.7 -> a 1.5, c 1.5, b 3.
		row("paper", "d1", "a", 0.8, true), row("paper", "d1", "a", 1.0, true),
		row("paper", "d1", "b", 0.7, true), row("paper", "d1", "c", 0.9, true),
		row("paper", "d1", "a", 0.0, false),     // an unselected point
		row("paper", "d1", "a@grid", 1.0, true), // a variant's row
		// d2: b 1, c 2, a 3.
		row("paper", "d2", "a", 0.6, true), row("paper", "d2", "b", 0.8, true), row("paper", "d2", "c", 0.7, true),
		// d3: c 1, a 2, b 3.
		row("paper", "d3", "a", 0.5, true), row("paper", "d3", "b", 0.4, true), row("paper", "d3", "c", 0.6, true),
		// d4 lacks c: left out.
		row("paper", "d4", "a", 0.5, true), row("paper", "d4", "b", 0.9, true),
		// One method only: no ranking.
		row("clean", "d1", "a", 0.9, true),
	}
	want := Headline{Protocols: []ProtocolHeadline{{
		Protocol: "paper", Datasets: []string{"d1", "d2", "d3"}, Dropped: 1,
		Methods: []MethodHeadline{
			{Method: "c", MeanRank: 1.5, Best: 2},
			{Method: "a", MeanRank: 6.5 / 3, Best: 1},
			{Method: "b", MeanRank: 7.0 / 3, Best: 1},
		},
	}}}
	got := headlineOf(recs)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("headline\n%+v\nwant\n%+v", got, want)
	}
	var buf bytes.Buffer
	got.Write(&buf, "out/report/REPORT.md")
	const text = `headline: mean rank of test accuracy over the datasets (1 = best) and on how many datasets each is best (a tie counts for each)
  paper protocol, 3 datasets; 1 left out, some method lacks them:
    method  mean rank  best on
    c       1.50       2
    a       2.17       1
    b       2.33       1
report: out/report/REPORT.md
`
	if buf.String() != text {
		t.Errorf("text:\n%s\nwant\n%s", buf.String(), text)
	}
	// Nothing to rank: only the report's path.
	buf.Reset()
	headlineOf(recs[len(recs)-1:]).Write(&buf, "r.md")
	if buf.String() != "report: r.md\n" {
		t.Errorf("without a ranking: %q", buf.String())
	}
}
