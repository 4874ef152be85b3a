package gate

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
)

func TestComparePredictions(t *testing.T) {
	row := func(key string, r int, yt, yp string) results.PredictionRow {
		return results.PredictionRow{Key: key, Row: r, YTrue: yt, YPred: yp}
	}
	ref := results.Predictions{Rows: []results.PredictionRow{
		row("u1", 0, "a", "a"), row("u1", 1, "a", "b"), row("u1", 2, "b", "b"), row("s", 0, "a", "a"),
	}}
	cases := []struct {
		name              string
		cur               []results.PredictionRow
		want              string // "key/row was->now note" joined by |
		compared, skipped int
	}{
		{"same", ref.Rows, "", 3, 1},
		// A right and a wrong prediction of class a swapped: the accuracy
		// is the same, both rows are listed.
		{"swap", []results.PredictionRow{row("u1", 0, "a", "b"), row("u1", 1, "a", "a"), row("u1", 2, "b", "b"), row("s", 0, "a", "b")},
			"u1/0 a->b |u1/1 b->a ", 3, 1},
		{"missing and extra", []results.PredictionRow{row("u1", 0, "a", "a"), row("u1", 1, "a", "b"), row("u1", 3, "b", "b")},
			"u1/2 b-> missing|u1/3 ->b extra", 3, 1},
		{"other data", []results.PredictionRow{row("u1", 0, "b", "a"), row("u1", 1, "a", "b"), row("u1", 2, "b", "b")},
			"u1/0 a->a true label differs: a -> b", 3, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds, compared, skipped := ComparePredictions(ref, results.Predictions{Rows: c.cur}, func(k string) bool { return k != "s" })
			var got []string
			for _, d := range ds {
				got = append(got, d.Key+"/"+string(rune('0'+d.Row))+" "+d.Was+"->"+d.Now+" "+d.Note)
			}
			if strings.Join(got, "|") != c.want || compared != c.compared || skipped != c.skipped {
				t.Errorf("got %q (%d compared, %d skipped), want %q (%d, %d)", strings.Join(got, "|"), compared, skipped, c.want, c.compared, c.skipped)
			}
		})
	}
}
