package artifacts

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// The readers parse members in parallel, split plain CSV themselves and
// decode most model lines without encoding/json; the reference readers
// below are the sequential encoding/csv and encoding/json readers they
// replace. The tests hold the two to the same records and the same error
// messages on generated, hand-made and damaged inputs.

func refReadPredictions(data []byte, allowTorn bool) (p Predictions, torn bool, err error) {
	m := -1
	var end int64
	var inflated error
	torn, inflated = EachMember(data, func(mem Member) {
		m++
		end = mem.End
		if err != nil {
			return
		}
		if m == 0 {
			err = p.readHeader(mem.Data)
			return
		}
		cr := csv.NewReader(bytes.NewReader(mem.Data))
		cr.FieldsPerRecord = -1
		for i := 0; ; i++ {
			f, rerr := cr.Read()
			if rerr == io.EOF {
				return
			}
			if rerr != nil {
				err = fmt.Errorf("results: %s member %d: %v", PredictionsFile, m, rerr)
				return
			}
			r, perr := refParseRow(p.Header, f)
			if perr != nil {
				err = fmt.Errorf("results: %s member %d row %d: %v", PredictionsFile, m, i+1, perr)
				return
			}
			if i == 0 {
				p.Units = append(p.Units, r.Key)
			} else if r.Key != p.Units[len(p.Units)-1] {
				err = fmt.Errorf("results: %s member %d mixes units %s and %s", PredictionsFile, m, p.Units[len(p.Units)-1], r.Key)
				return
			}
			p.Rows = append(p.Rows, r)
		}
	})
	if inflated != nil && err == nil {
		err = fmt.Errorf("results: %s: %w", PredictionsFile, inflated)
	}
	if err != nil {
		return p, torn, err
	}
	if torn && !allowTorn {
		return p, torn, fmt.Errorf("results: %s is damaged at byte %d (not a whole gzip member)", PredictionsFile, end)
	}
	return p, torn, nil
}

func refParseRow(header, f []string) (PredictionRow, error) {
	if len(f) != len(header) {
		return PredictionRow{}, fmt.Errorf("%d fields, header has %d", len(f), len(header))
	}
	r := PredictionRow{Key: f[0], YTrue: f[3], YPred: f[4]}
	var err error
	if r.ConfigIndex, err = strconv.Atoi(f[1]); err != nil {
		return r, fmt.Errorf("config_index: %v", err)
	}
	if r.Row, err = strconv.Atoi(f[2]); err != nil || r.Row < 0 {
		return r, fmt.Errorf("row %q is not a row index", f[2])
	}
	if r.Key == "" || r.YTrue == "" {
		return r, fmt.Errorf("empty key or y_true")
	}
	for j, s := range f[len(PredictionColumns):] {
		if s == "" {
			continue
		}
		if r.Scores == nil {
			r.Scores = make([]float64, len(header)-len(PredictionColumns))
			for k := range r.Scores {
				r.Scores[k] = math.NaN()
			}
		}
		if r.Scores[j], err = parseScore(s); err != nil {
			return r, fmt.Errorf("%s: %v", header[len(PredictionColumns)+j], err)
		}
	}
	return r, nil
}

func refReadModels(data []byte, allowTorn bool) (ms Models, torn bool, err error) {
	m := 0
	var end int64
	var inflated error
	torn, inflated = EachMember(data, func(mem Member) {
		m++
		end = mem.End
		if err != nil {
			return
		}
		lines := bytes.Split(bytes.TrimSuffix(mem.Data, []byte("\n")), []byte("\n"))
		for i, line := range lines {
			r, derr := refModelLine(line)
			if derr != nil {
				err = fmt.Errorf("results: %s member %d line %d: %v", ModelsFile, m, i+1, derr)
				return
			}
			if r.Key == "" {
				err = fmt.Errorf("results: %s member %d line %d: no key", ModelsFile, m, i+1)
				return
			}
			if i == 0 {
				ms.Units = append(ms.Units, r.Key)
			} else if r.Key != ms.Units[len(ms.Units)-1] {
				err = fmt.Errorf("results: %s member %d mixes units %s and %s", ModelsFile, m, ms.Units[len(ms.Units)-1], r.Key)
				return
			}
			ms.Records = append(ms.Records, r)
		}
	})
	if inflated != nil && err == nil {
		err = fmt.Errorf("results: %s: %w", ModelsFile, inflated)
	}
	if err != nil {
		return ms, torn, err
	}
	if torn && !allowTorn {
		return ms, torn, fmt.Errorf("results: %s is damaged at byte %d (not a whole gzip member)", ModelsFile, end)
	}
	return ms, torn, nil
}

func refModelLine(line []byte) (ModelRecord, error) {
	var r ModelRecord
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	err := dec.Decode(&r)
	return r, err
}

// samePredictions compares decoded predictions field by field (NaN
// scores by their bits).
func samePredictions(t *testing.T, what string, got, want Predictions) {
	t.Helper()
	if !reflect.DeepEqual(got.Header, want.Header) || !reflect.DeepEqual(got.ScoreClasses, want.ScoreClasses) ||
		!reflect.DeepEqual(got.Units, want.Units) || len(got.Rows) != len(want.Rows) {
		t.Fatalf("%s: header %q/%q, %d/%d units, %d/%d rows", what, got.Header, want.Header, len(got.Units), len(want.Units), len(got.Rows), len(want.Rows))
	}
	for i := range got.Rows {
		g, w := got.Rows[i], want.Rows[i]
		if g.Key != w.Key || g.ConfigIndex != w.ConfigIndex || g.Row != w.Row || g.YTrue != w.YTrue || g.YPred != w.YPred ||
			!sameBits(g.Scores, w.Scores) {
			t.Fatalf("%s: row %d = %+v, want %+v", what, i, g, w)
		}
	}
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// checkPredictionsAlike reads data with the reference and with every
// number of workers from 1 to 5: same predictions, same torn flag, same
// error.
func checkPredictionsAlike(t *testing.T, what string, data []byte, allowTorn bool) {
	t.Helper()
	want, wantTorn, wantErr := refReadPredictions(data, allowTorn)
	for workers := 1; workers <= 5; workers++ {
		got, torn, err := readPredictions(data, allowTorn, workers)
		if errText(err) != errText(wantErr) || torn != wantTorn {
			t.Fatalf("%s, %d workers: torn %v, error %q; want torn %v, %q", what, workers, torn, errText(err), wantTorn, errText(wantErr))
		}
		if wantErr == nil {
			samePredictions(t, fmt.Sprintf("%s, %d workers", what, workers), got, want)
		}
	}
}

func checkModelsAlike(t *testing.T, what string, data []byte, allowTorn bool) {
	t.Helper()
	want, wantTorn, wantErr := refReadModels(data, allowTorn)
	for workers := 1; workers <= 5; workers++ {
		got, torn, err := readModels(data, allowTorn, workers, true)
		if errText(err) != errText(wantErr) || torn != wantTorn {
			t.Fatalf("%s, %d workers: torn %v, error %q; want torn %v, %q", what, workers, torn, errText(err), wantTorn, errText(wantErr))
		}
		if wantErr == nil && (!reflect.DeepEqual(got.Units, want.Units) || !reflect.DeepEqual(withoutNaN(got.Records...), withoutNaN(want.Records...))) {
			t.Fatalf("%s, %d workers: models differ from encoding/json's", what, workers)
		}
		// A directory's readers do not keep the model JSON: the same
		// records and errors, with Model nil.
		lean, leanTorn, leanErr := readModels(data, allowTorn, workers, false)
		if errText(leanErr) != errText(wantErr) || leanTorn != wantTorn {
			t.Fatalf("%s, %d workers, model JSON not kept: torn %v, error %q; want torn %v, %q", what, workers, leanTorn, errText(leanErr), wantTorn, errText(wantErr))
		}
		if wantErr == nil {
			stripped := withoutNaN(want.Records...)
			for i := range stripped {
				stripped[i].Model = nil
			}
			if !reflect.DeepEqual(withoutNaN(lean.Records...), stripped) {
				t.Fatalf("%s, %d workers: models read without their JSON differ from encoding/json's", what, workers)
			}
		}
	}
}

// gz joins members, each compressed on its own.
func gz(t *testing.T, members ...string) []byte {
	t.Helper()
	var out []byte
	for _, m := range members {
		b, err := gzipMember([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

const testHeader = "key,config_index,row,y_true,y_pred,score_a,score_b\n"

// TestReadPredictionsLikeEncodingCSV holds the reader to encoding/csv on
// members our encoder never writes (quoted fields, CRLF, blank lines, a
// last line without newline) and on every kind of bad row, with the bad
// member after good ones and before more good ones.
func TestReadPredictionsLikeEncodingCSV(t *testing.T) {
	good := "u1,0,0,a,b,0.25,0.75\nu1,0,1,b,,,\n"
	cases := []struct{ name, member string }{
		{"plain", "u2,0,0,a,a,1,0\nu2,1,0,b,a,NaN,inf\n"},
		{"quoted field", "\"u2\",0,0,\"a, b\",\"say \"\"b\"\"\",0.5,-inf\n"},
		{"quoted newline", "u2,0,0,\"a\nb\",b,,\nu2,0,1,a,b,,\n"},
		{"crlf", "u2,0,0,a,b,1,2\r\nu2,0,1,a,b,,\r\n"},
		{"lone cr in a field", "u2,0,0,a\rx,b,1,2\n"},
		{"blank lines", "\nu2,0,0,a,b,1,2\n\n\nu2,0,1,a,b,,\n"},
		{"no last newline", "u2,0,0,a,b,1,2\nu2,0,1,a,b,,"},
		{"empty member", ""},
		{"spaces kept", " u2 ,0,0, a ,b,,\n"},
		{"invalid utf-8 and nul", "u2,0,0,a\xff,b\x00,,\n"},
		{"tab and form feed", "u2,0,0,\ta,b\f,,\n"},
		{"too few fields", "u2,0,0,a,b,1\n"},
		{"too many fields", "u2,0,0,a,b,1,2,3\n"},
		{"bad config", "u2,x,0,a,b,,\n"},
		{"negative row", "u2,0,-1,a,b,,\n"},
		{"bad row", "u2,0,1.5,a,b,,\n"},
		{"empty key", ",0,0,a,b,,\n"},
		{"empty y_true", "u2,0,0,,b,,\n"},
		{"bad score", "u2,0,0,a,b,0.5,zz\n"},
		{"mixed units", "u2,0,0,a,b,,\nu3,0,1,a,b,,\n"},
		{"bare quote", "u2,0,0,a\"x,b,,\n"},
		{"open quote", "u2,0,0,\"a,b,,\n"},
		{"error on a later row", "u2,0,0,a,b,,\nu2,0,1,a,b,,\nu2,0,2,a,b,,x\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := gz(t, testHeader, good, c.member, strings.ReplaceAll(good, "u1", "u9"))
			checkPredictionsAlike(t, c.name, data, false)
		})
	}
	for _, h := range []string{"", "key,config_index\n", "key,config_index,row,y_true,y_pred,x\n", "key,config_index,row,y_true,y_pred\nmore\n", "\"key\n"} {
		checkPredictionsAlike(t, "header "+h, gz(t, h, good), false)
	}
	checkPredictionsAlike(t, "no member", nil, false)
}

// TestReadPredictionsQuotedRow reads a quoted field back as encoding/csv
// reads it: a comma and doubled quotes inside a label.
func TestReadPredictionsQuotedRow(t *testing.T) {
	data := gz(t, testHeader, "\"u1\",0,3,\"a, \"\"b\"\"\",b,0.5,\n")
	p, _, err := ReadPredictions(data, false)
	if err != nil {
		t.Fatal(err)
	}
	want := PredictionRow{Key: "u1", Row: 3, YTrue: `a, "b"`, YPred: "b", Scores: []float64{0.5, math.NaN()}}
	if len(p.Rows) != 1 || p.Rows[0].YTrue != want.YTrue || p.Rows[0].Key != want.Key || !sameFloats(p.Rows[0].Scores, want.Scores) {
		t.Fatalf("rows %+v, want %+v", p.Rows, want)
	}
}

// TestReadGeneratedStudyAlike reads a generated study of many members
// with 1 to 5 workers: the same records as the sequential reference, in
// the same order, every time.
func TestReadGeneratedStudyAlike(t *testing.T) {
	dir := t.TempDir()
	shape := studyShape{units: 60, configs: 3, testRows: 40, rules: 4, nodes: 6}
	recs := writeStudy(t, dir, shape)
	pdata, mdata := mustRead(t, dir+"/"+PredictionsFile), mustRead(t, dir+"/"+ModelsFile)
	checkPredictionsAlike(t, "generated", pdata, false)
	checkModelsAlike(t, "generated", mdata, false)
	p, m, present, err := Read(dir, recs)
	if err != nil || !present || len(p.Units) != shape.units || len(m.Records) != shape.units*shape.configs {
		t.Fatalf("Read: present %v, %v, %d units, %d models", present, err, len(p.Units), len(m.Records))
	}
	// Torn anywhere in the last member, with and without allowTorn.
	for _, data := range [][]byte{pdata, mdata} {
		for _, cut := range []int{1, 7, 200} {
			torn := data[:len(data)-cut]
			if bytes.Equal(data, pdata) {
				checkPredictionsAlike(t, fmt.Sprintf("cut %d", cut), torn, false)
				checkPredictionsAlike(t, fmt.Sprintf("cut %d, torn allowed", cut), torn, true)
			} else {
				checkModelsAlike(t, fmt.Sprintf("cut %d", cut), torn, false)
				checkModelsAlike(t, fmt.Sprintf("cut %d, torn allowed", cut), torn, true)
			}
		}
	}
}

// TestReadErrorOrder damages two members of many: whichever worker
// reaches which first, the error reported is the first member's, as a
// sequential reader reports it.
func TestReadErrorOrder(t *testing.T) {
	var preds, models []string
	preds = append(preds, testHeader)
	for u := range 40 {
		row := fmt.Sprintf("u%d,0,0,a,b,0.5,0.5\n", u)
		line := fmt.Sprintf(`{"key":"u%d","config_index":0,"kind":"","features":null,"classes":null,"rules":["IF TRUE THEN a"],"model":{"n":[1,2]}}`+"\n", u)
		switch u {
		case 11:
			// The earlier damage is deep in a long member (slow to reach).
			row = strings.Repeat(row, 3000) + fmt.Sprintf("u%d,0,1,a,b,x,\n", u)
			line = strings.Repeat(line, 300) + fmt.Sprintf(`{"key":"u%d","model":{"n":[1,}}`+"\n", u)
		case 30:
			row = "u30,zz,0,a,b,,\n"
			line = `{"key":"u30","bogus":1}` + "\n"
		}
		preds, models = append(preds, row), append(models, line)
	}
	pdata, mdata := gz(t, preds...), gz(t, models...)
	for range 5 {
		checkPredictionsAlike(t, "two bad members", pdata, false)
		checkModelsAlike(t, "two bad members", mdata, false)
	}
	if _, _, err := ReadPredictions(pdata, false); err == nil || !strings.Contains(err.Error(), "member 12 row 3001") {
		t.Errorf("predictions: %v, want the error of member 12", err)
	}
	if _, _, err := ReadModels(mdata, false); err == nil || !strings.Contains(err.Error(), "member 12 line 301") {
		t.Errorf("models: %v, want the error of member 12", err)
	}
}

// modelLines are model lines our encoder writes and lines it does not,
// valid and not: each must decode (or fail) exactly as encoding/json
// decodes it.
var modelLines = []string{
	`{"key":"k","config_index":3,"kind":"tree/1","features":["x","y"],"classes":["a","b"],"rules":["IF x <= 1 THEN a"],"partitions":[{"feature":0,"feature_name":"x","term":1,"term_name":"Low","trapezoid":[0,0.5,1,"Infinity"],"trapezoid_scaled":["NaN",1e-7,-2.5E+3,1]},{"feature":1,"feature_name":"y","term":0,"term_name":"c","category":4}],"model":{"a":[1,-0.5,true,false,null,"s\"\\\/\b\f\n\r\t\u00e9"],"b":{}}}`,
	`{"key":"k","config_index":0,"kind":"","features":null,"classes":null,"rules":null}`,
	`{"key":"k","config_index":0,"kind":"","features":[],"classes":[],"rules":[],"partitions":[],"model":[]}`,
	` { "key" : "k" , "config_index" : 0 , "model" : [ 1 , { "x" : [ ] } ] } `,
	`{"key":"k","model":{"a":1}} trailing`,
	`{"key":"k"}{"key":"j"}`,
	`{"Key":"k","CONFIG_INDEX":2}`,
	`{"key":"k","key":"j"}`,
	`{"key":"k","config_index":1.0}`,
	`{"key":"k","config_index":1e2}`,
	`{"key":"k","config_index":99999999999999999999}`,
	`{"key":"k","config_index":-0}`,
	`{"key":"k","config_index":"1"}`,
	`{"key":"k","config_index":01}`,
	`{"key":"k\u00e9"}`,
	`{"key":"k\nx"}`,
	"{\"key\":\"k\xff\"}",
	"{\"key\":\"k\x01\"}",
	`{"key":"é","rules":["ü"]}`,
	`{"key":null}`,
	`{"key":5}`,
	`{"key":"k","bogus":1}`,
	`{"key":"k","partitions":[{"feature":0,"bogus":1}]}`,
	`{"key":"k","partitions":[{"trapezoid":[1e400]}]}`,
	`{"key":"k","partitions":[{"trapezoid":["nan"]}]}`,
	`{"key":"k","partitions":[{"trapezoid":[null]}]}`,
	`{"key":"k","partitions":[{"category":null}]}`,
	`{"key":"k","partitions":null}`,
	`{"key":"k","partitions":[null]}`,
	`{"key":"k","model":null}`,
	`{"key":"k","model":"text"}`,
	`{"key":"k","model":12}`,
	`{"key":"k","model":{"a":01}}`,
	`{"key":"k","model":{"a":1.}}`,
	`{"key":"k","model":{"a":.5}}`,
	`{"key":"k","model":{"a":-}}`,
	`{"key":"k","model":{"a":1e}}`,
	`{"key":"k","model":{"a":tru}}`,
	`{"key":"k","model":{"a":"\x"}}`,
	`{"key":"k","model":{"a":"\u12"}}`,
	"{\"key\":\"k\",\"model\":{\"a\":\"\x1f\"}}",
	"{\"key\":\"k\",\"model\":{\"a\":\"\xfe\"}}",
	`{"key":"k","model":{"a":1,}}`,
	`{"key":"k","model":[1,]}`,
	`{"key":"k","model":{"a" 1}}`,
	`{"key":"k","model":{1:2}}`,
	`{"key":"k","model":[1 2]}`,
	`{"key":"k","model":{"a":[}}`,
	`{"key":"k","model":{"a":1}`,
	`{"key":"k","model":{"a":1}}}`,
	`{"key":"k","rules":["a",]}`,
	`{"key":"k","rules":["a" "b"]}`,
	`{"key":"k",}`,
	`{"key":"k"`,
	`{}`,
	``,
	`   `,
	`[]`,
	`null`,
	`"k"`,
	`{"key":"k","model":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
	`{"key":"k","model":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
}

func TestFastModelLikeEncodingJSON(t *testing.T) {
	for i, line := range modelLines {
		checkModelLine(t, fmt.Sprintf("line %d", i), []byte(line), true)
	}
	// Every cut and every one-byte change of an encoder-written line.
	cat := learn.JSONFloat(2)
	rec := ModelRecord{Key: "clean/d/m#1/r0/f0/s42", ConfigIndex: 12, ModelHead: learn.ModelHead{Kind: "tree/1", Features: []string{"x", "y é"}, Classes: []string{"a", "b"},
		Rules: []string{"IF x IS Low THEN a", "IF TRUE THEN b"}},
		ReadableRules: []string{"IF x <= 757.0 THEN a", "IF TRUE THEN b"},
		Partitions: []Term{
			{TermRef: learn.TermRef{Feature: 0, FeatureName: "x", Term: 1, TermName: "Low"},
				Trapezoid:       learn.Floats([]float64{-1.5, 0, 2e-9, math.Inf(1)}),
				TrapezoidScaled: learn.Floats([]float64{math.NaN(), 0.25, 1, 1e21})},
			{TermRef: learn.TermRef{Feature: 1, FeatureName: "y é", TermName: "c"}, Category: &cat}},
		Model: json.RawMessage(`{"n":[1,-2.5e-3,true,false,null],"s":"a\"b","o":{"p":[]}}`)}
	line, err := appendModelJSON(nil, rec)
	if err != nil {
		t.Fatal(err)
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	for n := range len(line) {
		checkModelLine(t, fmt.Sprintf("cut at %d", n), line[:n], false)
		for _, c := range []byte{'"', ',', ':', '[', ']', '{', '}', '0', 'e', '-', ' ', '\\', 'x', 0xc3} {
			b := bytes.Clone(line)
			b[n] = c
			checkModelLine(t, fmt.Sprintf("byte %d set to %q", n, c), b, false)
		}
	}
}

// checkModelLine decodes line with fastModel and with encoding/json:
// same record, or fastModel declines (the member reader then decodes it
// with encoding/json). asMember also reads it as a member of a file.
func checkModelLine(t *testing.T, what string, line []byte, asMember bool) {
	t.Helper()
	want, wantErr := refModelLine(line)
	got, ok := fastModel(&jsonScan{intern: map[string]string{}, keepModel: true}, line)
	if !ok {
		return // decoded by encoding/json itself
	}
	if wantErr != nil {
		t.Fatalf("%s: %q decoded, encoding/json says %v", what, line, wantErr)
	}
	if !reflect.DeepEqual(withoutNaN(got), withoutNaN(want)) {
		t.Fatalf("%s: %q decoded as %+v, encoding/json %+v", what, line, got, want)
	}
	if !asMember {
		return
	}
	var m modelMember
	decodeModelMember(0, Member{Data: line}, &m, true)
	w, _, werr := refReadModels(gz(t, string(line)), false)
	if errText(m.err) != errText(werr) || (werr == nil && !reflect.DeepEqual(withoutNaN(m.recs...), withoutNaN(w.Records...))) {
		t.Fatalf("%s: member read as %v, %v; reference %v", what, m.recs, m.err, werr)
	}
}

// withoutNaN copies records with every NaN of their partitions replaced
// by a number no test writes, for reflect.DeepEqual (NaN != NaN).
func withoutNaN(recs ...ModelRecord) []ModelRecord {
	const nan = learn.JSONFloat(-123456.789)
	fix := func(v []learn.JSONFloat) []learn.JSONFloat {
		if v == nil {
			return nil
		}
		out := make([]learn.JSONFloat, len(v))
		for i, x := range v {
			if math.IsNaN(float64(x)) {
				x = nan
			}
			out[i] = x
		}
		return out
	}
	out := make([]ModelRecord, len(recs))
	for i, r := range recs {
		if r.Partitions != nil {
			ps := make([]Term, len(r.Partitions))
			for j, t := range r.Partitions {
				t.Trapezoid, t.TrapezoidScaled = fix(t.Trapezoid), fix(t.TrapezoidScaled)
				if t.Category != nil && math.IsNaN(float64(*t.Category)) {
					c := nan
					t.Category = &c
				}
				ps[j] = t
			}
			r.Partitions = ps
		}
		out[i] = r
	}
	return out
}

// TestReadModelsMalformedMembers puts bad lines among good members: the
// error (member, line, encoding/json's message) is the reference's.
func TestReadModelsMalformedMembers(t *testing.T) {
	good := `{"key":"u1","config_index":0,"kind":"","features":null,"classes":null,"rules":[]}` + "\n"
	for i, line := range modelLines {
		key := fmt.Sprintf("u%d", i+2)
		member := strings.ReplaceAll(good, "u1", key) + strings.ReplaceAll(line, `"k"`, `"`+key+`"`) + "\n"
		checkModelsAlike(t, fmt.Sprintf("line %d", i), gz(t, good, member, strings.ReplaceAll(good, "u1", "u99")), false)
	}
	for _, m := range []string{"", "\n", "\n\n", good + "\n", good + good, strings.ReplaceAll(good, "u1", "u2") + good} {
		checkModelsAlike(t, fmt.Sprintf("member %q", m), gz(t, good, m), false)
	}
}

func FuzzFastModel(f *testing.F) {
	for _, l := range modelLines[:len(modelLines)-2] {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		want, wantErr := refModelLine(line)
		got, ok := fastModel(&jsonScan{intern: map[string]string{}, keepModel: true}, line)
		if !ok {
			return
		}
		if wantErr != nil {
			t.Fatalf("%q decoded, encoding/json says %v", line, wantErr)
		}
		if !reflect.DeepEqual(withoutNaN(got), withoutNaN(want)) {
			t.Fatalf("%q decoded as %+v, encoding/json %+v", line, got, want)
		}
	})
}

// TestDeriveLikeRowByRow: Derive's runs and bit sets give the counts and
// the first duplicate of a row-by-row count, on rows in order, out of
// order, interleaved and duplicated.
func TestDeriveLikeRowByRow(t *testing.T) {
	row := func(key string, c, r int, yt, yp string) PredictionRow {
		return PredictionRow{Key: key, ConfigIndex: c, Row: r, YTrue: yt, YPred: yp}
	}
	cases := []struct {
		name string
		rows []PredictionRow
		err  string
	}{
		{"ordered", []PredictionRow{row("u", 0, 0, "a", "a"), row("u", 0, 2, "a", "b"), row("u", 1, 0, "a", "a"), row("v", 0, 5, "b", "b")}, ""},
		{"unordered", []PredictionRow{row("u", 0, 9, "a", "a"), row("u", 0, 2, "a", ""), row("u", 1, 70, "a", "a"), row("u", 1, 3, "a", "a")}, ""},
		{"interleaved", []PredictionRow{row("u", 0, 1, "a", "a"), row("u", 1, 1, "a", "a"), row("u", 0, 2, "b", "a")}, ""},
		{"duplicate", []PredictionRow{row("u", 0, 1, "a", "a"), row("u", 0, 4, "a", "a"), row("u", 0, 1, "a", "a")}, "row 1 of u config 0 recorded twice"},
		{"duplicate interleaved", []PredictionRow{row("u", 0, 1, "a", "a"), row("u", 1, 1, "a", "a"), row("u", 0, 1, "a", "a")}, "row 1 of u config 0 recorded twice"},
		{"first duplicate wins", []PredictionRow{row("u", 0, 7, "a", "a"), row("u", 0, 3, "a", "a"), row("u", 0, 3, "a", "a"), row("u", 0, 7, "a", "a")}, "row 3 of u config 0 recorded twice"},
		{"huge row index", []PredictionRow{row("u", 0, 1<<40, "a", "a"), row("u", 0, 1<<40, "a", "a")}, fmt.Sprintf("row %d of u config 0 recorded twice", 1<<40)},
		{"unit twice", []PredictionRow{row("u", 0, 1, "a", "a"), row("v", 0, 1, "a", "a"), row("u", 0, 2, "a", "a")}, "u recorded twice"},
	}
	for _, c := range cases {
		got, err := Derive(Predictions{Rows: c.rows}, Models{})
		if c.err != "" {
			if err == nil || !strings.HasSuffix(err.Error(), c.err) {
				t.Errorf("%s: %v, want ...%s", c.name, err, c.err)
			}
			continue
		}
		want := map[UnitConfig]Derived{}
		// Balanced accuracy row by row: per configuration, each true
		// label's rows and hits.
		type count struct{ n, hit int }
		perLabel := map[UnitConfig]map[string]*count{}
		for _, r := range c.rows {
			uc := UnitConfig{r.Key, r.ConfigIndex}
			d := want[uc]
			d.HasPredictions = true
			d.Leaves = -1
			d.NTest++
			if r.Correct() {
				d.Correct++
			}
			want[uc] = d
			if perLabel[uc] == nil {
				perLabel[uc] = map[string]*count{}
			}
			if perLabel[uc][r.YTrue] == nil {
				perLabel[uc][r.YTrue] = &count{}
			}
			perLabel[uc][r.YTrue].n++
			if r.Correct() {
				perLabel[uc][r.YTrue].hit++
			}
		}
		for uc, labels := range perLabel {
			sum := 0.0
			for _, l := range slices.Sorted(maps.Keys(labels)) {
				sum += float64(labels[l].hit) / float64(labels[l].n)
			}
			d := want[uc]
			d.BalancedAccuracy = sum / float64(len(labels))
			want[uc] = d
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, want)
		}
	}
}

// TestPauseGCNests: readers that overlap leave the collector off until
// the last is done, then restore the setting and the memory limit; a
// user's GOGC is left alone.
func TestPauseGCNests(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	percent := debug.SetGCPercent(73)
	limit := debug.SetMemoryLimit(-1)
	defer debug.SetGCPercent(percent)
	current := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1)
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	outer := pauseGC(1 << 20)
	inner := pauseGC(1 << 10)
	if p, l := current(); p != -1 || (limit == math.MaxInt64 && l == math.MaxInt64) {
		t.Errorf("paused: GC percent %d, limit %d", p, l)
	} else if limit == math.MaxInt64 && (l < int64(before.HeapAlloc)+16<<20 || l > int64(before.HeapAlloc)+64<<20+16<<20+8<<20) {
		// The outer reader's input sets the limit: the live heap, 16
		// times the input and 64 MiB (a few MiB of slack for the heap's
		// growth between the two readings).
		t.Errorf("paused: memory limit %d, heap %d: want the heap + 64 MiB + 16 × 1 MiB", l, before.HeapAlloc)
	}
	inner()
	if p, _ := current(); p != -1 {
		t.Errorf("after the inner reader: GC percent %d, want still off", p)
	}
	outer()
	if p, l := current(); p != 73 || l != limit {
		t.Errorf("after both: GC percent %d, limit %d; want 73, %d", p, l, limit)
	}
	t.Setenv("GOGC", "50")
	pauseGC(1 << 20)()
	if p, _ := current(); p != 73 {
		t.Errorf("with GOGC set: GC percent %d, want 73 untouched", p)
	}
}

// TestReadPredictionsShareScores: rows of a member whose score fields
// read alike share one slice (the memory of a study's scores is that of
// its distinct vectors); other members and other vectors do not, and the
// values are those of parsing each row.
func TestReadPredictionsShareScores(t *testing.T) {
	data := gz(t, testHeader,
		"u1,0,0,a,b,0.25,0.75\nu1,0,1,b,a,0.5,\nu1,0,2,a,a,0.25,0.75\nu1,1,0,b,b,,\nu1,1,1,a,a,,\n",
		"u2,0,0,a,b,0.25,0.75\n")
	p, _, err := ReadPredictions(data, false)
	if err != nil {
		t.Fatal(err)
	}
	checkPredictionsAlike(t, "shared scores", data, false)
	r := p.Rows
	if &r[0].Scores[0] != &r[2].Scores[0] {
		t.Error("rows 0 and 2 of one member (same scores) do not share their slice")
	}
	if &r[0].Scores[0] == &r[1].Scores[0] || &r[0].Scores[0] == &r[5].Scores[0] {
		t.Error("rows with other scores, or of another member, share a slice")
	}
	if r[3].Scores != nil || r[4].Scores != nil {
		t.Errorf("rows without scores read as %v, %v", r[3].Scores, r[4].Scores)
	}
}

// TestReadPredictionsShortEstimate: rows that compress to under 5 bytes
// each outgrow the row buffer taken at the start; the members beyond it
// are joined all the same, in order.
func TestReadPredictionsShortEstimate(t *testing.T) {
	members := []string{"key,config_index,row,y_true,y_pred\n"}
	rows := 0
	for u := range 6 {
		var b strings.Builder
		for i := range 4000 {
			fmt.Fprintf(&b, "u%d,0,%d,a,a\n", u, i)
			rows++
		}
		members = append(members, b.String())
	}
	data := gz(t, members...)
	if rows <= len(data)/5 {
		t.Fatalf("%d rows in %d bytes: within the estimate, the test does not test it", rows, len(data))
	}
	checkPredictionsAlike(t, "short estimate", data, false)
	p, _, err := ReadPredictions(data, false)
	if err != nil || len(p.Rows) != rows || p.Rows[rows-1].Row != 3999 || p.Rows[4000].Key != "u1" {
		t.Fatalf("%d rows, %v", len(p.Rows), err)
	}
}

// FuzzPredictionsMember holds the member parser to encoding/csv on any
// member text.
func FuzzPredictionsMember(f *testing.F) {
	for _, m := range []string{"u1,0,0,a,b,0.25,0.75\nu1,0,1,b,,,\n", "\"u\",0,0,\"a,b\",b,1,\n", "u,0,0,a,b,1,2\r\n\nu,0,1,a,b,,", "u,1,2,a,b,1,1\nu,1,3,a,b,1,1\n"} {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, member string) {
		data := gz(t, testHeader, member)
		want, _, wantErr := refReadPredictions(data, false)
		got, _, err := readPredictions(data, false, 2)
		if errText(err) != errText(wantErr) {
			t.Fatalf("%q: error %q, encoding/csv %q", member, errText(err), errText(wantErr))
		}
		if wantErr == nil {
			samePredictions(t, fmt.Sprintf("%q", member), got, want)
		}
	})
}
