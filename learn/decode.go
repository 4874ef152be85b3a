package learn

import (
	"encoding"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Decode stores values into the learner's typed configuration: the struct
// dst points to, whose fields name their parameter in a `param` tag. It is
// the one step between the strings configurations travel as and a
// learner's Config, so that no learner parses a string and the
// declaration in ps stays the only place a parameter's name, type, bounds
// and default are written (MustDefaults fills a Config from the declared
// defaults).
//
// A tag names a parameter of ps: `param:"max_rules"`. A bool field may
// stand for one value of an Enum parameter, true when the value is that
// one: `param:"out_of_range=clamp"`. Untagged fields (settings no
// parameter exposes) and embedded structs' untagged fields are walked
// through; a field whose parameter ps does not declare is left as it is
// (a package whose two specs declare different parameters shares one
// Config).
//
// A value reaches its field by the field's Go type: a type implementing
// encoding.TextUnmarshaler decodes itself (an enum type of the learner);
// otherwise signed and unsigned integers (Int parameters, with their
// range checked against the field's size), floats (Int or Float
// parameters), bools (Bool parameters) and strings (Enum and String
// parameters). Decode checks types, not bounds: values are validated by
// the harness (Spec.Resolve), and a Config built by hand by the learner's
// own Validate.
//
// Decode returns an error, never a silent zero: for a value that does not
// parse as its field's type, a value for a parameter ps does not declare,
// a parameter of ps no field takes, two fields for one parameter, or a
// field whose type cannot hold its parameter's kind.
func Decode(ps []Param, v Values, dst any) error {
	fields, err := bind(ps, dst)
	if err != nil {
		return err
	}
	for name := range v {
		if indexParam(ps, name) < 0 {
			return fmt.Errorf("parameter %s is not declared", name)
		}
	}
	for _, f := range fields {
		s, ok := v[f.param.Name]
		if !ok {
			continue
		}
		if err := f.set(s); err != nil {
			return err
		}
	}
	return nil
}

// DefaultValues returns the defaults ps declare.
func DefaultValues(ps []Param) Values {
	c := Values{}
	for _, p := range ps {
		c[p.Name] = p.Default
	}
	return c
}

// MustDefaults stores the defaults ps declare into dst (see Decode), for a
// learner's DefaultConfig. A tag that does not match the declaration is a
// programming error, which it reports by panicking: every test of the
// learner's package that builds a default configuration catches it.
func MustDefaults(ps []Param, dst any) {
	if err := Decode(ps, DefaultValues(ps), dst); err != nil {
		panic(fmt.Sprintf("learn: defaults of %T: %v", dst, err))
	}
}

// boundField is one field of a Config and the parameter it takes.
type boundField struct {
	param Param
	// when is the Enum value that makes a bool field true ("" = plain).
	when  string
	value reflect.Value
	path  string // Type.Field, for messages
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// bind pairs the tagged fields of the struct dst points to with the
// parameters of ps, and checks that the pairing is complete and typed.
func bind(ps []Param, dst any) ([]boundField, error) {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("decode into %T: want a non-nil pointer to a struct", dst)
	}
	var fields []boundField
	if err := collect(rv.Elem(), rv.Elem().Type().String(), ps, &fields); err != nil {
		return nil, err
	}
	taken := map[string]string{}
	for _, f := range fields {
		if prev, dup := taken[f.param.Name]; dup {
			return nil, fmt.Errorf("parameter %s has two fields, %s and %s", f.param.Name, prev, f.path)
		}
		taken[f.param.Name] = f.path
	}
	for _, p := range ps {
		if _, ok := taken[p.Name]; !ok {
			return nil, fmt.Errorf("parameter %s has no field in %s (tag one `param:%q`)", p.Name, rv.Elem().Type(), p.Name)
		}
	}
	return fields, nil
}

func collect(sv reflect.Value, typeName string, ps []Param, out *[]boundField) error {
	st := sv.Type()
	for i := range st.NumField() {
		sf := st.Field(i)
		tag, tagged := sf.Tag.Lookup("param")
		if !tagged {
			if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
				if err := collect(sv.Field(i), typeName, ps, out); err != nil {
					return err
				}
			}
			continue
		}
		path := typeName + "." + sf.Name
		if !sf.IsExported() {
			return fmt.Errorf("%s: a tagged field must be exported", path)
		}
		name, when, _ := strings.Cut(tag, "=")
		j := indexParam(ps, name)
		if j < 0 {
			continue // a parameter of another spec sharing this Config
		}
		f := boundField{param: ps[j], when: when, value: sv.Field(i), path: path}
		if err := f.check(); err != nil {
			return err
		}
		*out = append(*out, f)
	}
	return nil
}

// check reports a field whose type cannot hold its parameter's values.
func (f boundField) check() error {
	p, t := f.param, f.value.Type()
	if f.when != "" {
		for _, a := range p.Values {
			if p.Kind == Enum && a == f.when && t.Kind() == reflect.Bool {
				return nil
			}
		}
		return fmt.Errorf("%s: tag %s=%s needs a bool field and an Enum parameter with the value %q", f.path, p.Name, f.when, f.when)
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	ok := false
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		ok = p.Kind == Int
	case reflect.Float32, reflect.Float64:
		ok = p.Kind == Int || p.Kind == Float
	case reflect.Bool:
		ok = p.Kind == Bool
	case reflect.String:
		ok = p.Kind == Enum || p.Kind == String
	}
	if !ok {
		return fmt.Errorf("%s (%s) cannot hold parameter %s (%s)", f.path, t, p.Name, p.Kind)
	}
	return nil
}

// set parses s as the field's type and stores it.
func (f boundField) set(s string) error {
	v, name := f.value, f.param.Name
	if f.when != "" {
		v.SetBool(s == f.when)
		return nil
	}
	if u, ok := v.Addr().Interface().(encoding.TextUnmarshaler); ok {
		if err := u.UnmarshalText([]byte(s)); err != nil {
			return fmt.Errorf("parameter %s: %v", name, err)
		}
		return nil
	}
	bits := v.Type().Bits
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, bits())
		if err != nil {
			return parseError(name, s, f.value.Type(), err)
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, bits())
		if err != nil {
			return parseError(name, s, f.value.Type(), err)
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(s, bits())
		if err != nil {
			return parseError(name, s, f.value.Type(), err)
		}
		v.SetFloat(x)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return parseError(name, s, f.value.Type(), err)
		}
		v.SetBool(b)
	case reflect.String:
		v.SetString(s)
	}
	return nil
}

func parseError(name, s string, t reflect.Type, err error) error {
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return fmt.Errorf("parameter %s: %s does not fit the learner's %s", name, s, t)
	}
	return fmt.Errorf("parameter %s: %q is not a %s", name, s, t)
}
