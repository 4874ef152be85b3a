package results

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"strconv"
	"testing"
)

// referencePredictionsText is the CSV text of sets as encoding/csv writes
// it, one []string per row: the text the streaming encoder must match
// byte for byte.
func referencePredictionsText(t *testing.T, header []string, sets []PredictionSet) []byte {
	t.Helper()
	col := map[string]int{}
	for j, h := range header {
		col[h] = j
	}
	var rows [][]string
	for _, p := range sets {
		for i, r := range p.Rows {
			row := make([]string, len(header))
			row[0], row[1], row[2] = p.Key, strconv.Itoa(p.ConfigIndex), strconv.Itoa(r)
			row[3] = p.Classes[p.YTrue[i]]
			if p.YPred[i] >= 0 {
				row[4] = p.Classes[p.YPred[i]]
			}
			if p.Scores != nil {
				for k, v := range p.Scores[i] {
					row[col[ScoreColumn(p.Classes[k])]] = formatScore(v)
				}
			}
			rows = append(rows, row)
		}
	}
	text, err := encodeCSV(rows)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPredictionsMemberMatchesEncodingCSV(t *testing.T) {
	// Class names and keys that encoding/csv quotes (comma, quote, line
	// breaks, leading space) or leaves bare, scores at the formatting's
	// edges, a set without scores and a header with a class of another
	// dataset (an empty cell on every row).
	classes := []string{"a,b", `say "hi"`, " lead", "x\ny", "plain", `\.`, "tab\t", "\r"}
	header, err := PredictionsHeader(append(append([]string(nil), classes...), "other"))
	if err != nil {
		t.Fatal(err)
	}
	scores := []float64{0, 1, -0.5, 1e-300, 1.0 / 3, math.NaN(), math.Inf(1), math.Inf(-1), 123456789012345678}
	var rows, yt, yp []int
	var sc [][]float64
	for i := 0; i < 40; i++ {
		rows = append(rows, 7*i)
		yt = append(yt, i%len(classes))
		yp = append(yp, i%(len(classes)+1)-1) // -1: no prediction
		s := make([]float64, len(classes))
		for k := range s {
			s[k] = scores[(i+k)%len(scores)]
		}
		sc = append(sc, s)
	}
	cases := []struct {
		name string
		sets []PredictionSet
	}{
		{"scores", []PredictionSet{{Key: "p,d|m", ConfigIndex: 3, Classes: classes, Rows: rows, YTrue: yt, YPred: yp, Scores: sc}}},
		{"no scores", []PredictionSet{{Key: "plain", ConfigIndex: 0, Classes: classes, Rows: rows, YTrue: yt, YPred: yp}}},
		{"two sets", []PredictionSet{
			{Key: `k"q`, ConfigIndex: 0, Classes: classes, Rows: rows, YTrue: yt, YPred: yp, Scores: sc},
			{Key: `k"q`, ConfigIndex: 11, Classes: classes, Rows: rows[:5], YTrue: yt[:5], YPred: yp[:5]},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := PredictionsMember(header, c.sets)
			if err != nil {
				t.Fatal(err)
			}
			got, want := gunzip(t, m), referencePredictionsText(t, header, c.sets)
			if !bytes.Equal(got, want) {
				t.Fatalf("text differs from encoding/csv:\n got %q\nwant %q", got, want)
			}
		})
	}
}
