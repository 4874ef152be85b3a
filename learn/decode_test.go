package learn

import (
	"fmt"
	"strings"
	"testing"
)

// level is an enum type of a learner that decodes itself.
type level int

func (l *level) UnmarshalText(b []byte) error {
	switch string(b) {
	case "low":
		*l = 1
	case "high":
		*l = 2
	default:
		return fmt.Errorf("unknown level %q", b)
	}
	return nil
}

var decodeParams = []Param{
	{Name: "n", Kind: Int, Default: "2"},
	{Name: "rate", Kind: Float, Default: "0.5"},
	{Name: "on", Kind: Bool, Default: "true"},
	{Name: "mode", Kind: Enum, Default: "a", Values: []string{"a", "b"}},
	{Name: "side", Kind: Enum, Default: "left", Values: []string{"left", "right"}},
	{Name: "lvl", Kind: Enum, Default: "low", Values: []string{"low", "high"}},
	{Name: "seed", Kind: Int, Default: "42"},
	{Name: "bits", Kind: Int, Default: "64"},
}

type inner struct {
	N    int     `param:"n"`
	Rate float64 `param:"rate"`
}

type decodeConfig struct {
	inner
	On    bool    `param:"on"`
	Mode  string  `param:"mode"`
	Right bool    `param:"side=right"`
	Level level   `param:"lvl"`
	Seed  uint32  `param:"seed"`
	Bits  float64 `param:"bits"` // an Int parameter held as a float
	Other string  // a setting no parameter exposes
	Extra int     `param:"extra"` // a parameter of another spec: left as it is
}

// TestDecode: defaults and values reach their typed fields, by the
// field's type, and nothing else is touched.
func TestDecode(t *testing.T) {
	c := decodeConfig{Other: "kept", Extra: 7}
	MustDefaults(decodeParams, &c)
	want := decodeConfig{inner: inner{2, 0.5}, On: true, Mode: "a", Level: 1, Seed: 42, Bits: 64, Other: "kept", Extra: 7}
	if c != want {
		t.Errorf("defaults: %+v, want %+v", c, want)
	}
	v := Values{"n": "-3", "rate": "1e-05", "on": "false", "mode": "b", "side": "right", "lvl": "high", "seed": "4294967295", "bits": "7"}
	if err := Decode(decodeParams, v, &c); err != nil {
		t.Fatal(err)
	}
	want = decodeConfig{inner: inner{-3, 1e-05}, Mode: "b", Right: true, Level: 2, Seed: 4294967295, Bits: 7, Other: "kept", Extra: 7}
	if c != want {
		t.Errorf("decoded: %+v, want %+v", c, want)
	}
	// A parameter absent from the values leaves its field as it is.
	if err := Decode(decodeParams, Values{"side": "left"}, &c); err != nil || c.Right || c.N != -3 {
		t.Errorf("partial decode: %+v, %v", c, err)
	}
}

// TestDecodeErrors: a value its field cannot hold, a value or a parameter
// without a field, and a tag that does not match the declaration are
// errors that name the parameter, never a silent zero.
func TestDecodeErrors(t *testing.T) {
	type twoFields struct {
		A int `param:"n"`
		B int `param:"n"`
	}
	type wrongKind struct {
		N string `param:"n"`
	}
	type badWhen struct {
		N bool `param:"n=1"`
	}
	type unexported struct {
		//lint:ignore U1000 the case is that Decode refuses a field it cannot set
		n int `param:"n"`
	}
	one := []Param{{Name: "n", Kind: Int, Default: "1"}}
	cases := []struct {
		name string
		ps   []Param
		v    Values
		dst  any
		want string
	}{
		{"not an integer", decodeParams, Values{"n": "1.5"}, &decodeConfig{}, `parameter n: "1.5" is not a int`},
		{"overflow", decodeParams, Values{"seed": "4294967296"}, &decodeConfig{}, "parameter seed: 4294967296 does not fit the learner's uint32"},
		{"negative unsigned", decodeParams, Values{"seed": "-1"}, &decodeConfig{}, `parameter seed: "-1" is not a uint32`},
		{"not a number", decodeParams, Values{"rate": "x"}, &decodeConfig{}, `parameter rate: "x" is not a float64`},
		{"not a bool", decodeParams, Values{"on": "yes"}, &decodeConfig{}, `parameter on: "yes" is not a bool`},
		{"unmarshaler", decodeParams, Values{"lvl": "mid"}, &decodeConfig{}, `parameter lvl: unknown level "mid"`},
		{"undeclared value", decodeParams, Values{"nope": "1"}, &decodeConfig{}, "parameter nope is not declared"},
		{"parameter without field", append([]Param{{Name: "z", Kind: Int, Default: "0"}}, decodeParams...), nil, &decodeConfig{}, "parameter z has no field in learn.decodeConfig"},
		{"two fields", one, nil, &twoFields{}, "parameter n has two fields, learn.twoFields.A and learn.twoFields.B"},
		{"wrong kind", one, nil, &wrongKind{}, "learn.wrongKind.N (string) cannot hold parameter n (int)"},
		{"bad when", one, nil, &badWhen{}, "learn.badWhen.N: tag n=1 needs a bool field and an Enum parameter"},
		{"unexported", one, nil, &unexported{}, "learn.unexported.n: a tagged field must be exported"},
		{"not a pointer", one, nil, decodeConfig{}, "want a non-nil pointer to a struct"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := Decode(tc.ps, tc.v, tc.dst)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decode = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "parameter n has two fields") {
			t.Errorf("MustDefaults on a bad Config: panic %v", r)
		}
	}()
	MustDefaults(one, &twoFields{})
}

// TestValuesReadPanicsOnUnvalidated: the string readers never return a
// silent zero for a value that does not parse.
func TestValuesReadPanicsOnUnvalidated(t *testing.T) {
	v := Values{"x": "oops"}
	for name, read := range map[string]func(){
		"Int": func() { v.Int("x") }, "Float": func() { v.Float("x") }, "Bool": func() { v.Bool("x") },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `parameter x: "oops"`) {
					t.Errorf("%s: panic %v", name, r)
				}
			}()
			read()
		}()
	}
}
