package learn

import (
	"fmt"
	"reflect"
)

// Settings declares a learner's typed configuration C once: the
// parameters that set its tagged fields (see Decode) and the method name
// its errors start with. It replaces the prologue every learner would
// otherwise copy: DefaultConfig is Defaults, Config.Validate calls
// CheckBounds, and Spec.New is Constructor(settings, New).
type Settings[C any] struct {
	// Method prefixes every error ("c45: parameter ...").
	Method string
	Params []Param
	// Base holds the settings no parameter exposes (a smoothing constant);
	// Defaults starts from it. The zero value when there are none.
	Base C
	// Seed stores the unit's seed into a configuration, for a learner that
	// uses it (Spec.Stochastic); nil for a deterministic learner, whose
	// Constructor ignores the seed.
	Seed func(c *C, seed int64)
}

// Defaults returns Base with the parameters' defaults stored into it. A
// tag that does not match the declaration is a programming error, which
// it reports by panicking (see MustDefaults).
func (s Settings[C]) Defaults() C {
	c := s.Base
	MustDefaults(s.Params, &c)
	return c
}

// Decode returns the defaults with the values v stored over them.
func (s Settings[C]) Decode(v Values) (C, error) {
	c := s.Defaults()
	if err := Decode(s.Params, v, &c); err != nil {
		var zero C
		return zero, fmt.Errorf("%s: %v", s.Method, err)
	}
	return c, nil
}

// CheckBounds checks every numeric field of c that a bounded parameter
// sets against that parameter's bounds, in the order the parameters are
// declared, and returns the first violation (as the function CheckBounds
// words it, a NaN violating every bound). A learner's Validate calls it
// first, so that a Config built by hand meets the bounds the harness
// checks in configuration strings; checks a bound cannot express follow
// as code.
func (s Settings[C]) CheckBounds(c C) error {
	fields, err := bind(s.Params, &c)
	if err != nil {
		return fmt.Errorf("%s: %v", s.Method, err)
	}
	var vs []Number
	for _, p := range s.Params {
		if !p.HasMin && !p.HasMax {
			continue
		}
		for _, f := range fields {
			if f.param.Name != p.Name || f.when != "" {
				continue
			}
			if x, ok := number(f.value); ok {
				vs = append(vs, Number{Name: p.Name, Value: x})
			}
		}
	}
	if err := CheckBounds(s.Params, vs...); err != nil {
		return fmt.Errorf("%s: %v", s.Method, err)
	}
	return nil
}

// number is a numeric field's value (false for a field of another kind,
// or a type that decodes itself from text).
func number(v reflect.Value) (float64, bool) {
	if reflect.PointerTo(v.Type()).Implements(textUnmarshaler) {
		return 0, false
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}

// Constructor returns a Spec.New: it decodes the values over the
// defaults, stores the unit's seed when the settings take one (Seed), and
// hands the configuration to newTrainer (the package's New, which
// validates).
func Constructor[C any, T Trainer](s Settings[C], newTrainer func(C) (T, error)) func(Values, int64) (Trainer, error) {
	return func(v Values, seed int64) (Trainer, error) {
		c, err := s.Decode(v)
		if err != nil {
			return nil, err
		}
		if s.Seed != nil {
			s.Seed(&c, seed)
		}
		t, err := newTrainer(c)
		if err != nil {
			// A typed nil in the interface would look like a trainer.
			return nil, err
		}
		return t, nil
	}
}
