// Package methods is the registry through which the harness knows learners:
// each method has a name, a typed parameter schema with defaults and
// validation, named grids of configurations, and a constructor. Adding a
// learner is one package plus one registration file here; the runner never
// switches on learner types.
//
// Every method declares an implementation Version (1 or more). It is part of
// each work unit's identity (package bench/identity), so results stored by an
// earlier implementation are never resumed, merged or gated as if they were
// current. The rule: bump Version in the same change that alters what the
// learner computes for some input and configuration (predictions, the fitted
// model, its complexity counts, how it uses the seed); leave it alone for
// changes that cannot alter a result row (speed, refactoring, messages,
// documentation). A new parameter whose default keeps the old behaviour needs
// no bump either: the resolved configuration, which is also part of the
// identity, changes by itself.
//
// A parameter that only changes how a learner executes, never what it
// computes (a worker or thread count), is declared with Param.Execution. It
// still reaches the learner, but it is left out of the canonical
// configuration (Method.Canonical): of the config column of results.csv and
// of every unit's identity, so a study re-run, resumed or sharded with
// another value is the same study. The claim must be proven: every
// Execution parameter has a test that fits with two different values give
// byte-identical results (TestExecutionParamsDoNotChangeResults).
package methods

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
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

// Param declares one hyperparameter.
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
	// configuration (see the package doc for the proof this requires).
	Execution bool
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

func (p Param) bounds(f float64, v string) error {
	if p.HasMin && f < p.Min {
		return fmt.Errorf("parameter %s: %s is below the minimum %v", p.Name, v, p.Min)
	}
	if p.HasMax && f > p.Max {
		return fmt.Errorf("parameter %s: %s is above the maximum %v", p.Name, v, p.Max)
	}
	return nil
}

// Config is a complete assignment of parameter values, keyed by name; its
// canonical text form belongs to the results contract (results.Config).
type Config = results.Config

// Canonical renders a configuration of the method as results.csv and unit
// identities record it: String without the Execution parameters.
func (m *Method) Canonical(c Config) string {
	return m.results(c).String()
}

// Execution returns the configuration's Execution parameters (nil when the
// method has none): the values a run used that its results do not record.
func (m *Method) Execution(c Config) Config {
	var out Config
	for _, p := range m.Params {
		if v, ok := c[p.Name]; ok && p.Execution {
			if out == nil {
				out = Config{}
			}
			out[p.Name] = v
		}
	}
	return out
}

func (m *Method) results(c Config) Config {
	out := make(Config, len(c))
	for k, v := range c {
		if p, ok := m.Param(k); !ok || !p.Execution {
			out[k] = v
		}
	}
	return out
}

// ParseConfig parses the canonical form produced by Config.String.
func ParseConfig(s string) (Config, error) { return results.ParseConfig(s) }

// Grid is an ordered list of partial configurations; each point is merged
// over the method's defaults. Order matters: test-selection ties resolve to
// the earliest point, as in the authors' code.
type Grid []map[string]string

// Method is one registered learner.
type Method struct {
	Name string
	Doc  string
	// Version is the implementation version (see the package doc for when to
	// bump it). It must be at least 1.
	Version int
	// Params declares every hyperparameter with its default.
	Params []Param
	// Grids names the configuration lists a study can use. Every method has
	// a "default" grid; a single-point grid means a fixed configuration.
	Grids map[string]Grid
	// Stochastic methods depend on the unit's seed beyond their parameters.
	Stochastic bool
	// New builds a trainer for a validated config. seed is the work unit's
	// seed; deterministic methods may ignore it.
	New func(cfg Config, seed int64) (learn.Trainer, error)
}

// Param returns the declaration of a parameter.
func (m *Method) Param(name string) (Param, bool) {
	for _, p := range m.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Defaults returns the default configuration.
func (m *Method) Defaults() Config {
	c := Config{}
	for _, p := range m.Params {
		c[p.Name] = p.Default
	}
	return c
}

// Resolve merges overrides over the defaults and validates the result.
// Unknown parameter names are errors that list the valid ones.
func (m *Method) Resolve(overrides map[string]string) (Config, error) {
	c := m.Defaults()
	for k, v := range overrides {
		p, ok := m.Param(k)
		if !ok {
			return nil, fmt.Errorf("method %s has no parameter %q (valid: %s)", m.Name, k, strings.Join(m.ParamNames(), ", "))
		}
		if err := p.Check(v); err != nil {
			return nil, fmt.Errorf("method %s: %v", m.Name, err)
		}
		c[k] = v
	}
	return c, nil
}

// ParamNames lists the parameter names in declaration order.
func (m *Method) ParamNames() []string {
	out := make([]string, len(m.Params))
	for i, p := range m.Params {
		out[i] = p.Name
	}
	return out
}

// GridNames lists the method's grid names, sorted.
func (m *Method) GridNames() []string {
	var out []string
	for k := range m.Grids {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Expand resolves every point of a named grid, with extra overrides applied
// on top of each point (they win over the grid's values).
func (m *Method) Expand(grid string, extra map[string]string) ([]Config, error) {
	g, ok := m.Grids[grid]
	if !ok {
		return nil, fmt.Errorf("method %s has no grid %q (valid: %s)", m.Name, grid, strings.Join(m.GridNames(), ", "))
	}
	if len(g) == 0 {
		g = Grid{{}}
	}
	out := make([]Config, 0, len(g))
	for _, point := range g {
		merged := map[string]string{}
		for k, v := range point {
			merged[k] = v
		}
		for k, v := range extra {
			merged[k] = v
		}
		c, err := m.Resolve(merged)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

var (
	mu       sync.RWMutex
	registry = map[string]*Method{}
)

// Register adds a method. It panics on a duplicate name or an invalid
// declaration, which are programming errors caught by the package tests.
func Register(m *Method) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[m.Name]; dup {
		panic("methods: duplicate registration of " + m.Name)
	}
	if m.Version < 1 {
		panic("methods: " + m.Name + ": Version must be at least 1 (the learner's implementation version)")
	}
	for _, p := range m.Params {
		if err := p.Check(p.Default); err != nil {
			panic("methods: " + m.Name + ": bad default: " + err.Error())
		}
	}
	if _, ok := m.Grids["default"]; !ok {
		if m.Grids == nil {
			m.Grids = map[string]Grid{}
		}
		m.Grids["default"] = Grid{{}}
	}
	registry[m.Name] = m
}

// Lookup finds a method by name; the error lists the registered names.
func Lookup(name string) (*Method, error) {
	mu.RLock()
	defer mu.RUnlock()
	if m, ok := registry[name]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("unknown method %q (registered: %s)", name, strings.Join(namesLocked(), ", "))
}

// Names lists the registered methods in a fixed presentation order: the
// paper's columns first, then any others alphabetically.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

var presentation = []string{"fgrt", "fgrt-opt", "cart", "c45-entropy", "c45", "ripper", "fga"}

func namesLocked() []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range presentation {
		if _, ok := registry[n]; ok {
			out = append(out, n)
			seen[n] = true
		}
	}
	var rest []string
	for n := range registry {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
