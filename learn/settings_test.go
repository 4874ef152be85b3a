package learn

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// settingsConfig is a learner's Config with every kind of field Settings
// meets: bounded ints and floats (declared in another order than the
// fields), an unsigned int, an unbounded float, an enum type, a bool that
// stands for an Enum value, and an untagged field.
type settingsConfig struct {
	Scale    float64 `param:"scale"`
	Depth    int     `param:"depth"`
	Count    uint16  `param:"count"`
	Free     float64 `param:"free"`
	Level    level   `param:"level"`
	Clamp    bool    `param:"mode=clamp"`
	Untagged int
	Seed     int64
}

var settingsUnderTest = Settings[settingsConfig]{Method: "toy", Base: settingsConfig{Untagged: 5, Depth: 99},
	Seed: func(c *settingsConfig, seed int64) { c.Seed = seed }, Params: []Param{
		{Name: "depth", Kind: Int, Default: "3", Min: 1, Max: 10, HasMin: true, HasMax: true},
		{Name: "scale", Kind: Float, Default: "0.5", Min: 0, Max: 1, HasMin: true, HasMax: true},
		{Name: "count", Kind: Int, Default: "4", Min: 2, HasMin: true},
		{Name: "free", Kind: Float, Default: "-7"},
		{Name: "level", Kind: Enum, Values: []string{"low", "high"}, Default: "high"},
		{Name: "mode", Kind: Enum, Values: []string{"clamp", "keep"}, Default: "clamp"},
	}}

// deterministic is settingsUnderTest without a base or a seed.
var deterministic = Settings[settingsConfig]{Method: "toy", Params: settingsUnderTest.Params}

func TestSettingsDefaultsAndDecode(t *testing.T) {
	want := settingsConfig{Scale: 0.5, Depth: 3, Count: 4, Free: -7, Level: 2, Clamp: true, Untagged: 5}
	if got := settingsUnderTest.Defaults(); got != want {
		t.Fatalf("Defaults = %+v, want %+v (the base's untagged field kept, its tagged one set)", got, want)
	}
	if got, want := deterministic.Defaults(), (settingsConfig{Scale: 0.5, Depth: 3, Count: 4, Free: -7, Level: 2, Clamp: true}); got != want {
		t.Fatalf("Defaults without a base = %+v, want %+v", got, want)
	}
	for _, tc := range []struct {
		name    string
		values  Values
		want    settingsConfig
		wantErr string
	}{
		{"none keeps the defaults", Values{}, want, ""},
		{"some over the defaults", Values{"depth": "9", "mode": "keep"},
			settingsConfig{Scale: 0.5, Depth: 9, Count: 4, Free: -7, Level: 2, Untagged: 5}, ""},
		{"not a number", Values{"depth": "x"}, settingsConfig{}, `toy: parameter depth: "x" is not a int`},
		{"undeclared", Values{"width": "1"}, settingsConfig{}, "toy: parameter width is not declared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := settingsUnderTest.Decode(tc.values)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Decode = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// TestSettingsCheckBounds: every bounded numeric field is checked, in the
// order the parameters are declared, and nothing else is.
func TestSettingsCheckBounds(t *testing.T) {
	ok := settingsUnderTest.Defaults()
	with := func(edit func(*settingsConfig)) settingsConfig {
		c := ok
		edit(&c)
		return c
	}
	for _, tc := range []struct {
		name string
		c    settingsConfig
		want string // "" = valid
	}{
		{"defaults", ok, ""},
		{"on the bounds", with(func(c *settingsConfig) { c.Depth, c.Scale, c.Count = 10, 0, 2 }), ""},
		{"unbounded float", with(func(c *settingsConfig) { c.Free = math.Inf(-1) }), ""},
		{"int below", with(func(c *settingsConfig) { c.Depth = 0 }), "toy: parameter depth: 0 is below the minimum 1"},
		{"float above", with(func(c *settingsConfig) { c.Scale = 1.5 }), "toy: parameter scale: 1.5 is above the maximum 1"},
		{"unsigned below", with(func(c *settingsConfig) { c.Count = 1 }), "toy: parameter count: 1 is below the minimum 2"},
		{"NaN", with(func(c *settingsConfig) { c.Scale = math.NaN() }), "toy: parameter scale: NaN is not allowed"},
		{"declaration order, not field order", with(func(c *settingsConfig) { c.Scale, c.Depth = 2, 11 }),
			"toy: parameter depth: 11 is above the maximum 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := settingsUnderTest.CheckBounds(tc.c)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("CheckBounds(%+v) = %v, want nil", tc.c, err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Fatalf("CheckBounds(%+v) = %v, want %q", tc.c, err, tc.want)
			}
		})
	}
	// A declaration whose parameter no field takes is reported, not skipped.
	bad := Settings[settingsConfig]{Method: "toy", Params: append(settingsUnderTest.Params, Param{Name: "gone", Kind: Int, Default: "1"})}
	if err := bad.CheckBounds(ok); err == nil || !strings.Contains(err.Error(), "parameter gone has no field") {
		t.Fatalf("CheckBounds with an untaken parameter = %v", err)
	}
}

type settingsTrainer struct{ c settingsConfig }

func (*settingsTrainer) Fit([][]float64, []int, Schema) (Model, error) { return nil, nil }

// TestConstructor: decoded values reach New; an error of either step is
// returned with a nil Trainer, never a typed nil that looks like one.
func TestConstructor(t *testing.T) {
	refuse := errors.New("toy: refused")
	newTrainer := func(c settingsConfig) (*settingsTrainer, error) {
		if err := settingsUnderTest.CheckBounds(c); err != nil {
			return nil, err
		}
		if c.Depth == 7 {
			return nil, refuse
		}
		return &settingsTrainer{c}, nil
	}
	build := Constructor(settingsUnderTest, newTrainer)
	if tr, err := build(Values{}, 42); err != nil || tr.(*settingsTrainer).c.Seed != 42 {
		t.Fatalf("the unit seed did not reach the configuration: %#v, %v", tr, err)
	}
	if tr, err := Constructor(deterministic, newTrainer)(Values{}, 42); err != nil || tr.(*settingsTrainer).c.Seed != 0 {
		t.Fatalf("a deterministic learner's configuration got the seed: %#v, %v", tr, err)
	}
	for _, tc := range []struct {
		values    Values
		wantDepth int
		wantErr   string
	}{
		{Values{"depth": "5"}, 5, ""},
		{Values{"depth": "five"}, 0, `toy: parameter depth: "five" is not a int`},
		{Values{"depth": "11"}, 0, "toy: parameter depth: 11 is above the maximum 10"},
		{Values{"depth": "7"}, 0, "toy: refused"},
	} {
		tr, err := build(tc.values, 42)
		if tc.wantErr != "" {
			if tr != nil || err == nil || err.Error() != tc.wantErr {
				t.Errorf("%v: got %#v, %v; want nil, %q", tc.values, tr, err, tc.wantErr)
			}
			continue
		}
		if err != nil || tr.(*settingsTrainer).c.Depth != tc.wantDepth {
			t.Errorf("%v: got %#v, %v; want depth %d", tc.values, tr, err, tc.wantDepth)
		}
	}
}
