package learn

import (
	"fmt"
	"maps"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind is the type of a parameter value.
type Kind int

// Parameter kinds.
const (
	Int Kind = iota
	Float
	Bool
	Enum
	// String accepts any value without ';' or newlines (parameters of
	// external methods, whose meaning the harness does not know).
	String
)

func (k Kind) String() string {
	return [...]string{"int", "float", "bool", "enum", "string"}[k]
}

// Param declares one hyperparameter of a learner: its name as
// configurations spell it, its type, its default and its bounds. The
// declaration is the only place its bounds are written: the harness checks
// configuration strings against it (Check) and the learner's own Validate
// checks its Go configuration against it (CheckBounds).
type Param struct {
	Name    string
	Kind    Kind
	Default string
	// Values lists the allowed values of an Enum parameter.
	Values []string
	// Min and Max bound Int and Float parameters (inclusive) when HasMin /
	// HasMax are set.
	Min, Max       float64
	HasMin, HasMax bool
	Doc            string
	// Execution marks a parameter that cannot change any output of the
	// learner (predictions, model, complexity counts) for any input and
	// seed, only how it is computed: it is not part of the canonical
	// configuration (see Spec for the proof this requires).
	Execution bool
	// Proof names, for an Execution parameter, two values whose fits must
	// give byte-identical results: the proof the registry's tests run
	// (bench/methods' TestExecutionParamsDoNotChangeResults).
	Proof [2]string
}

// Check validates a value for the parameter.
func (p Param) Check(v string) error {
	switch p.Kind {
	case Int:
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("parameter %s: %q is not an integer", p.Name, v)
		}
		return p.bounds(float64(n), v)
	case Float:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("parameter %s: %q is not a number", p.Name, v)
		}
		if f != f {
			return fmt.Errorf("parameter %s: NaN is not allowed", p.Name)
		}
		return p.bounds(f, v)
	case Bool:
		if _, err := strconv.ParseBool(v); err != nil {
			return fmt.Errorf("parameter %s: %q is not true or false", p.Name, v)
		}
	case Enum:
		for _, a := range p.Values {
			if a == v {
				return nil
			}
		}
		return fmt.Errorf("parameter %s: %q is not one of %s", p.Name, v, strings.Join(p.Values, ", "))
	case String:
		if strings.ContainsAny(v, ";\n") {
			return fmt.Errorf("parameter %s: %q may not contain ';' or newlines", p.Name, v)
		}
	}
	return nil
}

// Canonical returns the one spelling of a value Check accepts, so that
// equal values give one configuration string: an integer in decimal
// without sign or leading zeros ("+05" -> "5", "-0" -> "0"), a number in
// Go's shortest form that reads back to it ("0.50" -> "0.5", "-0.0" ->
// "0", "1e3" -> "1000"), a bool as true or false ("True", "1", "T" ->
// "true"). Enum and String values are their own spelling (the harness
// does not know what an external method's string means).
func (p Param) Canonical(v string) string {
	switch p.Kind {
	case Int:
		if n, err := strconv.Atoi(v); err == nil {
			return strconv.Itoa(n)
		}
	case Float:
		if f, err := strconv.ParseFloat(v, 64); err == nil && f == f {
			if f == 0 {
				f = 0 // -0 is 0: one configuration, one string
			}
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	case Bool:
		if b, err := strconv.ParseBool(v); err == nil {
			return strconv.FormatBool(b)
		}
	}
	return v
}

func (p Param) bounds(f float64, v string) error {
	if p.HasMin && f < p.Min {
		return fmt.Errorf("parameter %s: %s is below the minimum %v", p.Name, v, p.Min)
	}
	if p.HasMax && f > p.Max {
		return fmt.Errorf("parameter %s: %s is above the maximum %v", p.Name, v, p.Max)
	}
	return nil
}

// Number is the value of one numeric parameter of a learner's Go
// configuration, named as its Param is.
type Number struct {
	Name  string
	Value float64
}

// CheckBounds checks numeric values of a learner's Go configuration
// against the bounds the parameters ps declare, in the order given, and
// returns the first violation (a NaN violates every bound). A learner's
// Validate calls it, so that the bounds the harness checks in
// configuration strings and the bounds a library caller meets are one
// declaration. Naming a parameter ps does not declare is a programming
// error and is reported as one.
func CheckBounds(ps []Param, vs ...Number) error {
	for _, v := range vs {
		i := indexParam(ps, v.Name)
		if i < 0 {
			return fmt.Errorf("parameter %s is not declared", v.Name)
		}
		p := ps[i]
		text := strconv.FormatFloat(v.Value, 'g', -1, 64)
		if math.IsNaN(v.Value) && (p.HasMin || p.HasMax) {
			return fmt.Errorf("parameter %s: NaN is not allowed", p.Name)
		}
		if err := p.bounds(v.Value, text); err != nil {
			return err
		}
	}
	return nil
}

func indexParam(ps []Param, name string) int {
	for i, p := range ps {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// Values is a complete assignment of parameter values, keyed by name: the
// form in which configurations travel through studies, results.csv and
// unit identities.
type Values map[string]string

// String renders the values canonically: name=value pairs sorted by name,
// joined with ';'.
func (c Values) String() string {
	names := make([]string, 0, len(c))
	for k := range c {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + "=" + c[k]
	}
	return strings.Join(parts, ";")
}

// ParseValues parses the canonical form produced by String.
func ParseValues(s string) (Values, error) {
	c := Values{}
	if s == "" {
		return c, nil
	}
	for _, part := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(part, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("config %q: %q is not name=value", s, part)
		}
		c[k] = v
	}
	return c, nil
}

// Int returns an integer parameter. The values must have been validated:
// a value that does not parse is a programming error and panics, never a
// silent 0. A learner's constructor reads its values through Decode.
func (c Values) Int(name string) int {
	n, err := strconv.Atoi(c[name])
	if err != nil {
		panic(fmt.Sprintf("learn: parameter %s: %q read as an integer before validation", name, c[name]))
	}
	return n
}

// Float returns a float parameter; see Int.
func (c Values) Float(name string) float64 {
	f, err := strconv.ParseFloat(c[name], 64)
	if err != nil {
		panic(fmt.Sprintf("learn: parameter %s: %q read as a number before validation", name, c[name]))
	}
	return f
}

// Bool returns a boolean parameter; see Int.
func (c Values) Bool(name string) bool {
	b, err := strconv.ParseBool(c[name])
	if err != nil {
		panic(fmt.Sprintf("learn: parameter %s: %q read as a bool before validation", name, c[name]))
	}
	return b
}

// Str returns a parameter's raw value.
func (c Values) Str(name string) string { return c[name] }

// Grid is an ordered list of partial configurations; each point is merged
// over the method's defaults. Order matters: test-selection ties resolve to
// the earliest point, as in the authors' code.
type Grid []map[string]string

// Spec declares a learner once, beside its code: everything the harness,
// its validation and its views know of it. A learner package exports one
// Spec per method it offers (package fgrt offers "fgrt" and "fgrt-opt");
// the registry (package bench/methods) lists them, one line per package.
//
// Version is the implementation version (1 or more). It is part of each
// work unit's identity, so results stored by an earlier implementation are
// never resumed, merged or gated as if they were current. The rule: bump
// Version in the same change that alters what the learner computes for
// some input and configuration (predictions, the fitted model, its
// complexity counts, how it uses the seed); leave it alone for changes that
// cannot alter a result row (speed, refactoring, messages, documentation).
// A new parameter whose default keeps the old behaviour needs no bump
// either: the resolved configuration, which is also part of the identity,
// changes by itself.
//
// A parameter that only changes how a learner executes, never what it
// computes (a worker or thread count), is declared with Param.Execution. It
// still reaches the learner, but it is left out of the canonical
// configuration (Canonical): of the config column of results.csv and of
// every unit's identity, so a study re-run, resumed or sharded with another
// value is the same study. The claim must be proven: every Execution
// parameter names two values in Param.Proof, and a test requires that fits
// with them give byte-identical results (bench/methods'
// TestExecutionParamsDoNotChangeResults).
type Spec struct {
	// Name is the method's name in studies, results.csv and the CLI.
	Name string
	Doc  string
	// Version is the implementation version (see above for when to bump
	// it). It must be at least 1.
	Version int
	// DisplayName is the method's name in tables and figures ("" = Name).
	DisplayName string
	// Order places the method in presentation order: methods with an
	// Order come first, lowest first; the others follow alphabetically.
	Order int
	// PaperColumn names the column of the paper's tables the method
	// reproduces ("" = none).
	PaperColumn string
	// Labels gives display names to study labels derived from this method
	// with other parameters (the paper study's "fgrt-fixed").
	Labels map[string]string
	// Timed methods belong to the runtime study's default method list.
	Timed bool
	// Params declares every hyperparameter with its default.
	Params []Param
	// Grids names the configuration lists a study can use. Every method has
	// a "default" grid; a single-point grid means a fixed configuration.
	Grids map[string]Grid
	// Stochastic methods depend on the unit's seed beyond their parameters.
	Stochastic bool
	// Conformance lists the configurations (overrides of the defaults) the
	// conformance suite fits; nil means the defaults alone. It may shrink a
	// slow learner without changing which code paths run, and add
	// variants that run code paths of their own.
	Conformance []map[string]string
	// New builds a trainer for validated values. seed is the work unit's
	// seed; deterministic methods may ignore it.
	New func(cfg Values, seed int64) (Trainer, error)
	// Release, when set, ends what the method keeps running between fits
	// (an external method's worker processes) and returns once it has
	// ended. The runner calls it when a run ends, normally, after a
	// failure or on interruption, so that nothing the method started
	// outlives the run; a later fit may start anew.
	Release func()
}

// Title returns the display name: DisplayName, or Name without one.
func (m *Spec) Title() string {
	if m.DisplayName != "" {
		return m.DisplayName
	}
	return m.Name
}

// Param returns the declaration of a parameter.
func (m *Spec) Param(name string) (Param, bool) {
	if i := indexParam(m.Params, name); i >= 0 {
		return m.Params[i], true
	}
	return Param{}, false
}

// Defaults returns the default configuration.
func (m *Spec) Defaults() Values { return DefaultValues(m.Params) }

// Resolve merges overrides over the defaults and validates the result.
// Unknown parameter names are errors that list the valid ones.
func (m *Spec) Resolve(overrides map[string]string) (Values, error) {
	c := m.Defaults()
	for k, v := range overrides {
		p, ok := m.Param(k)
		if !ok {
			return nil, fmt.Errorf("method %s has no parameter %q (valid: %s)", m.Name, k, strings.Join(m.ParamNames(), ", "))
		}
		if err := p.Check(v); err != nil {
			return nil, fmt.Errorf("method %s: %v", m.Name, err)
		}
		c[k] = p.Canonical(v)
	}
	return c, nil
}

// ParamNames lists the parameter names in declaration order.
func (m *Spec) ParamNames() []string {
	out := make([]string, len(m.Params))
	for i, p := range m.Params {
		out[i] = p.Name
	}
	return out
}

// GridNames lists the method's grid names, sorted.
func (m *Spec) GridNames() []string {
	var out []string
	for k := range m.Grids {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Expand resolves every point of a named grid, with extra overrides applied
// on top of each point (they win over the grid's values).
func (m *Spec) Expand(grid string, extra map[string]string) ([]Values, error) {
	g, ok := m.Grids[grid]
	if !ok {
		return nil, fmt.Errorf("method %s has no grid %q (valid: %s)", m.Name, grid, strings.Join(m.GridNames(), ", "))
	}
	if len(g) == 0 {
		g = Grid{{}}
	}
	out := make([]Values, 0, len(g))
	for _, point := range g {
		merged := maps.Clone(point)
		if merged == nil {
			merged = map[string]string{}
		}
		maps.Copy(merged, extra)
		c, err := m.Resolve(merged)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Canonical renders a configuration of the method as results.csv and unit
// identities record it: String without the Execution parameters.
func (m *Spec) Canonical(c Values) string {
	out := make(Values, len(c))
	for k, v := range c {
		if p, ok := m.Param(k); !ok || !p.Execution {
			out[k] = v
		}
	}
	return out.String()
}

// Execution returns the configuration's Execution parameters (nil when the
// method has none): the values a run used that its results do not record.
func (m *Spec) Execution(c Values) Values {
	var out Values
	for _, p := range m.Params {
		if v, ok := c[p.Name]; ok && p.Execution {
			if out == nil {
				out = Values{}
			}
			out[p.Name] = v
		}
	}
	return out
}

// Check reports a declaration the harness cannot use: no name, a Version
// below 1, a default its own parameter rejects, a missing constructor.
func (m *Spec) Check() error {
	switch {
	case m.Name == "":
		return fmt.Errorf("spec without a name")
	case m.Version < 1:
		return fmt.Errorf("%s: Version must be at least 1 (the learner's implementation version)", m.Name)
	case m.New == nil:
		return fmt.Errorf("%s: no constructor (New)", m.Name)
	}
	for _, p := range m.Params {
		if err := p.Check(p.Default); err != nil {
			return fmt.Errorf("%s: bad default: %v", m.Name, err)
		}
		if c := p.Canonical(p.Default); c != p.Default {
			// A default is a configuration string's value as it is.
			return fmt.Errorf("%s: default of %s is %q; write it as %q, its canonical form", m.Name, p.Name, p.Default, c)
		}
	}
	return nil
}
