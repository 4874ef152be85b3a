package artifacts

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
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

func TestModelJSONMatchesEncodingJSON(t *testing.T) {
	var ascii []byte
	for c := 0; c < 0x80; c++ {
		ascii = append(ascii, byte(c))
	}
	odd := []string{string(ascii), "IF x <= 0.5 & y > 2 THEN \"A\"", "bad \xff utf8 \xe2\x82", "sep \u2028 \u2029 é 中", ""}
	cat := learn.JSONFloat(3)
	recs := []ModelRecord{
		{Key: "k", ConfigIndex: 0}, // nil slices: null, no partitions, no model
		{Key: odd[0], ConfigIndex: 12, ModelHead: learn.ModelHead{Kind: odd[1], Features: odd, Classes: []string{},
			Rules: odd[1:]}, ReadableRules: odd[2:],
			Partitions: []Term{
				{TermRef: learn.TermRef{Feature: 0, FeatureName: odd[2], Term: 1, TermName: odd[3]},
					Trapezoid:       []learn.JSONFloat{-1e-7, 0, 1.0 / 3, learn.JSONFloat(math.Inf(1))},
					TrapezoidScaled: []learn.JSONFloat{learn.JSONFloat(math.NaN()), 1e21, 2.5, learn.JSONFloat(math.Inf(-1))}},
				{TermRef: learn.TermRef{Feature: 4, FeatureName: "f", Term: 0, TermName: "t"}, Category: &cat},
				{TermRef: learn.TermRef{Feature: 5}, Trapezoid: []learn.JSONFloat{}},
			},
			Model: json.RawMessage(" {\"a\" : [1, 2,\n 3], \"b\":\"<&>\"} ")},
		// Already compact: written as it is; spaces and an escaped quote
		// inside a string do not count as white space.
		{Key: "c", Model: json.RawMessage(`{"a":"x y \\\" z","b":[1,{"c":null}]}`)},
		{Key: "d", Model: json.RawMessage(`{"a":"x\\\\"  ,"b":1}`)},
		// Readable rules: empty (omitted) and present without partitions.
		{Key: "e", ModelHead: learn.ModelHead{Rules: []string{}}, ReadableRules: []string{}},
		{Key: "f", ModelHead: learn.ModelHead{Rules: []string{"IF x <= 0.0180732 THEN class 1"}},
			ReadableRules: []string{"IF x <= 757.0 THEN class 1"}},
	}
	for i, r := range recs {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		got, err := appendModelJSON(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("record %d:\n got %s\nwant %s", i, got, want.Bytes())
		}
	}
	if _, err := appendModelJSON(nil, ModelRecord{Model: json.RawMessage("{bad")}); err == nil {
		t.Error("an invalid model was written")
	}
}
