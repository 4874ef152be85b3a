package gate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

func TestComparePredictions(t *testing.T) {
	row := func(key string, r int, yt, yp string) artifacts.PredictionRow {
		return artifacts.PredictionRow{Key: key, Row: r, YTrue: yt, YPred: yp}
	}
	ref := artifacts.Predictions{Rows: []artifacts.PredictionRow{
		row("u1", 0, "a", "a"), row("u1", 1, "a", "b"), row("u1", 2, "b", "b"), row("s", 0, "a", "a"),
	}}
	cases := []struct {
		name              string
		cur               []artifacts.PredictionRow
		want              string // "key/row was->now note" joined by |
		compared, skipped int
	}{
		{"same", ref.Rows, "", 3, 1},
		// A right and a wrong prediction of class a swapped: the accuracy
		// is the same, both rows are listed.
		{"swap", []artifacts.PredictionRow{row("u1", 0, "a", "b"), row("u1", 1, "a", "a"), row("u1", 2, "b", "b"), row("s", 0, "a", "b")},
			"u1/0 a->b |u1/1 b->a ", 3, 1},
		{"missing and extra", []artifacts.PredictionRow{row("u1", 0, "a", "a"), row("u1", 1, "a", "b"), row("u1", 3, "b", "b")},
			"u1/2 b-> missing|u1/3 ->b extra", 3, 1},
		{"other data", []artifacts.PredictionRow{row("u1", 0, "b", "a"), row("u1", 1, "a", "b"), row("u1", 2, "b", "b")},
			"u1/0 a->a true label differs: a -> b", 3, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds, compared, skipped := ComparePredictions(ref, artifacts.Predictions{Rows: c.cur}, func(k string) bool { return k != "s" })
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

// comparePredictionsByMaps is ComparePredictions as first written, with a
// map of each side's rows: the oracle of TestComparePredictionsMatchesMaps.
func comparePredictionsByMaps(ref, cur artifacts.Predictions, compare func(key string) bool) (diffs []PredictionDiff, compared, skipped int) {
	type id struct {
		key         string
		config, row int
	}
	index := func(p artifacts.Predictions) map[id]artifacts.PredictionRow {
		m := map[id]artifacts.PredictionRow{}
		for _, r := range p.Rows {
			m[id{r.Key, r.ConfigIndex, r.Row}] = r
		}
		return m
	}
	was, now := index(ref), index(cur)
	for k, r := range was {
		if !compare(k.key) {
			skipped++
			continue
		}
		compared++
		n, ok := now[k]
		switch {
		case !ok:
			diffs = append(diffs, PredictionDiff{k.key, k.config, k.row, r.YPred, "", r.YTrue, "missing"})
		case n.YTrue != r.YTrue:
			diffs = append(diffs, PredictionDiff{k.key, k.config, k.row, r.YPred, n.YPred, r.YTrue, "true label differs: " + r.YTrue + " -> " + n.YTrue})
		case n.YPred != r.YPred:
			diffs = append(diffs, PredictionDiff{k.key, k.config, k.row, r.YPred, n.YPred, r.YTrue, ""})
		}
	}
	for k, n := range now {
		if _, ok := was[k]; !ok && compare(k.key) {
			diffs = append(diffs, PredictionDiff{k.key, k.config, k.row, "", n.YPred, n.YTrue, "extra"})
		}
	}
	sort.Slice(diffs, func(i, j int) bool {
		a, b := diffs[i], diffs[j]
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.ConfigIndex != b.ConfigIndex {
			return a.ConfigIndex < b.ConfigIndex
		}
		return a.Row < b.Row
	})
	return diffs, compared, skipped
}

// TestComparePredictionsMatchesMaps: the ordered walk gives the map
// version's differences and counts on random pairs of prediction sets,
// in file order or shuffled, with rows missing, extra, relabelled,
// repeated and of stochastic methods.
func TestComparePredictionsMatchesMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	labels := []string{"a", "b", "c"}
	for trial := 0; trial < 300; trial++ {
		var ref, cur []artifacts.PredictionRow
		for u := range 1 + rng.IntN(4) {
			key := fmt.Sprintf("u%d", u)
			if u == 2 {
				key = "s" // a stochastic method's unit
			}
			for ci := range 1 + rng.IntN(2) {
				for r := range rng.IntN(12) {
					row := artifacts.PredictionRow{Key: key, ConfigIndex: ci, Row: r, YTrue: labels[rng.IntN(3)], YPred: labels[rng.IntN(3)]}
					if rng.IntN(8) != 0 {
						ref = append(ref, row)
					}
					switch rng.IntN(10) {
					case 0: // missing from the results
					case 1:
						row.YPred = labels[rng.IntN(3)]
						cur = append(cur, row)
					case 2:
						row.YTrue = labels[rng.IntN(3)]
						cur = append(cur, row)
					case 3:
						cur = append(cur, row, artifacts.PredictionRow{Key: key, ConfigIndex: ci, Row: r, YTrue: row.YTrue, YPred: labels[rng.IntN(3)]})
					default:
						cur = append(cur, row)
					}
				}
			}
		}
		if trial%3 == 0 {
			rng.Shuffle(len(ref), func(i, j int) { ref[i], ref[j] = ref[j], ref[i] })
			rng.Shuffle(len(cur), func(i, j int) { cur[i], cur[j] = cur[j], cur[i] })
		}
		deterministic := func(k string) bool { return k != "s" }
		a, b := artifacts.Predictions{Rows: ref}, artifacts.Predictions{Rows: cur}
		got, gc, gs := ComparePredictions(a, b, deterministic)
		want, wc, ws := comparePredictionsByMaps(a, b, deterministic)
		if !reflect.DeepEqual(got, want) || gc != wc || gs != ws {
			t.Fatalf("trial %d: %v (%d compared, %d skipped), the maps give %v (%d, %d)", trial, got, gc, gs, want, wc, ws)
		}
	}
}

// BenchmarkComparePredictions compares two sets of 10^6 rows in file order
// (what check --predictions does on a large study).
func BenchmarkComparePredictions(b *testing.B) {
	var rows []artifacts.PredictionRow
	for u := range 10 {
		for r := range 100_000 {
			rows = append(rows, artifacts.PredictionRow{Key: fmt.Sprintf("unit-%02d", u), Row: r, YTrue: "a", YPred: "b"})
		}
	}
	p := artifacts.Predictions{Rows: rows}
	b.ReportAllocs()
	for b.Loop() {
		ComparePredictions(p, p, func(string) bool { return true })
	}
}
