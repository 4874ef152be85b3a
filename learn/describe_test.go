package learn

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestJSONFloatRoundTrip(t *testing.T) {
	cases := []struct {
		v    float64
		text string
	}{
		{0.1, "0.1"},
		{1.0 / 3, "0.3333333333333333"},
		{math.Copysign(0, -1), "-0"},
		{1e-300, "1e-300"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.Inf(1), `"Infinity"`},
		{math.Inf(-1), `"-Infinity"`},
		{math.NaN(), `"NaN"`},
	}
	for _, c := range cases {
		b, err := json.Marshal(JSONFloat(c.v))
		if err != nil || string(b) != c.text {
			t.Errorf("marshal %v = %s, %v; want %s", c.v, b, err, c.text)
			continue
		}
		var back JSONFloat
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("unmarshal %s: %v", b, err)
			continue
		}
		if math.Float64bits(float64(back)) != math.Float64bits(c.v) && !(math.IsNaN(c.v) && math.IsNaN(float64(back))) {
			t.Errorf("%s read back as %v, want the bits of %v", b, float64(back), c.v)
		}
	}
	var f JSONFloat
	if err := json.Unmarshal([]byte(`"inf"`), &f); err == nil {
		t.Error(`"inf" was accepted as a number`)
	}
	if got := Float64s(Floats([]float64{1, 2})); !reflect.DeepEqual(got, []float64{1, 2}) || Floats(nil) != nil {
		t.Errorf("Floats/Float64s round trip: %v", got)
	}
}

func TestRuleLines(t *testing.T) {
	text := "IF a IS Low THEN class x\nfallback: IF b\n# note\nIF TRUE THEN class y\n"
	want := []string{"IF a IS Low THEN class x", "IF TRUE THEN class y"}
	if got := RuleLines(text); !reflect.DeepEqual(got, want) {
		t.Errorf("RuleLines = %q, want %q", got, want)
	}
	if got := RuleLines("# one class\n"); got == nil || len(got) != 0 {
		t.Errorf("RuleLines of no rule = %#v, want an empty, non-nil slice (JSON [])", got)
	}
}

func TestReconstructUnknownKind(t *testing.T) {
	_, err := Reconstruct(Description{ModelHead: ModelHead{Kind: "nobody.model/9"}})
	if err == nil || !strings.Contains(err.Error(), `unknown model kind "nobody.model/9"`) {
		t.Errorf("Reconstruct of an unknown kind: %v", err)
	}
}

// TestRegisterModel: a kind registered with its learner's fromJSON
// rebuilds what fromJSON returns, and a refused model is an error with no
// predictor (not one holding a nil pointer).
func TestRegisterModel(t *testing.T) {
	const kind = "test.registered/1"
	RegisterModel(kind, func(raw json.RawMessage) (*constModel, error) {
		if string(raw) != "{}" {
			return nil, errors.New("want {}")
		}
		return &constModel{}, nil
	})
	for _, c := range []struct {
		model   string
		wantErr string
	}{
		{"{}", ""},
		{"[]", "learn: model of kind test.registered/1: want {}"},
	} {
		p, err := Reconstruct(Description{ModelHead: ModelHead{Kind: kind}, Model: json.RawMessage(c.model)})
		switch {
		case c.wantErr == "" && (err != nil || p == nil || !reflect.DeepEqual(p.Predict(make([][]float64, 2)), []int{0, 0})):
			t.Errorf("%s: rebuilt %v, %v", c.model, p, err)
		case c.wantErr != "" && (err == nil || err.Error() != c.wantErr || p != nil):
			t.Errorf("%s: rebuilt %#v, %v; want no predictor and %q", c.model, p, err, c.wantErr)
		}
	}
}

type constModel struct{}

func (constModel) Predict(X [][]float64) []int { return make([]int, len(X)) }
func (constModel) Complexity() Complexity      { return Complexity{Rules: 1, Leaves: 1} }
func (constModel) Rules(s Schema) string {
	return "IF TRUE THEN class " + s.ClassName(0) + "\n# default\n"
}

func TestNewDescription(t *testing.T) {
	s := Schema{Features: []Feature{{Name: "a"}, {}}, Classes: []string{"yes", ""}}
	d, err := NewDescription("test.const/1", constModel{}, s, map[string]int{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	want := Description{ModelHead: ModelHead{Kind: "test.const/1", Features: []string{"a", "x1"}, Classes: []string{"yes", "1"},
		Rules: []string{"IF TRUE THEN class yes"}}, Model: json.RawMessage(`{"n":1}`)}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("NewDescription = %+v, want %+v", d, want)
	}
	if _, err := NewDescription("test.const/1", constModel{}, s, math.NaN()); err == nil {
		t.Error("a model that cannot be marshalled gave no error")
	}
}

// TestJSONFloatMatchesEncodingJSON: finite values are written exactly as
// encoding/json writes a float64.
func TestJSONFloatMatchesEncodingJSON(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -2.5, 1e-6, 9.99e-7, 1e-7, -1.5e-300, 1e20, 1e21, 123456789e15, 5e-324, math.MaxFloat64, 0.1 + 0.2} {
		want, _ := json.Marshal(v)
		got, err := json.Marshal(JSONFloat(v))
		if err != nil || string(got) != string(want) {
			t.Errorf("%v: %s, encoding/json writes %s", v, got, want)
		}
	}
}

// rawModel is a model description whose MarshalJSON returns fixed text.
type rawModel string

func (r rawModel) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// TestMarshalModelIsJSONMarshal: the pass-through of a compact Marshaler's
// output gives json.Marshal's bytes, and everything json.Marshal would
// change (white space, HTML characters, U+2028/U+2029) or refuse takes
// json.Marshal.
func TestMarshalModelIsJSONMarshal(t *testing.T) {
	cases := []struct {
		name        string
		model       any
		passThrough bool
	}{
		{"compact", rawModel(`{"nodes":[{"f":0,"t":0.5}],"name":"a b"}`), true},
		{"space in a string only", rawModel(`{"rule":"IF x IS Low THEN c"}`), true},
		{"escaped quote", rawModel(`{"s":"say \"hi\" "}`), true},
		{"white space outside strings", rawModel(`{"a": [1, 2]}`), false},
		{"newline", rawModel("{\"a\":1\n}"), false},
		{"html", rawModel(`{"rule":"x < 3 & y > 2"}`), false},
		{"line separator", rawModel("{\"s\":\"a\u2028b\"}"), false},
		{"paragraph separator", rawModel("{\"s\":\"a\u2029b\"}"), false},
		{"not a Marshaler", struct{ A []float64 }{[]float64{1, 2}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := json.Marshal(c.model)
			if err != nil {
				t.Fatal(err)
			}
			got, err := marshalModel(c.model)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("marshalModel = %s, json.Marshal = %s", got, want)
			}
			if r, ok := c.model.(rawModel); ok && (string(got) == string(r)) != c.passThrough {
				t.Errorf("passed through = %v, want %v", !c.passThrough, c.passThrough)
			}
		})
	}
	// Invalid text with white space takes json.Marshal, which refuses it;
	// invalid compact text passes through and is refused where models are
	// written (TestAppendRefusesMalformedUnits in results).
	if _, err := marshalModel(rawModel(`{"a": }`)); err == nil {
		t.Error("invalid JSON with white space was accepted")
	}
}

// TestAppendJSONArrays: the slice writers give encoding/json's bytes for
// nil, empty and filled slices, nested ones included.
func TestAppendJSONArrays(t *testing.T) {
	same := func(what string, got []byte, v any) {
		t.Helper()
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: got %s, want %s", what, got, want)
		}
	}
	for _, v := range [][]int{nil, {}, {0, -3, 1 << 40}} {
		same("ints", AppendJSONInts(nil, v), v)
	}
	for _, v := range [][]JSONFloat{nil, {}, {0.5, 1e-9, -2}} {
		same("floats", AppendJSONFloats(nil, v), v)
	}
	nested := [][]JSONFloat{nil, {}, {1, 2.5}}
	same("nested", AppendJSONArray(nil, nested, AppendJSONFloats), nested)
	same("nil nested", AppendJSONArray[[]JSONFloat](nil, nil, AppendJSONFloats), [][]JSONFloat(nil))
}
