// Package methods is the registry through which the harness knows learners.
// A learner declares itself once, beside its code, as a learn.Spec (name,
// Version, typed parameters with bounds and defaults, grids, display name,
// order, constructor); this package lists those specs, one registration
// line per learner package (see builtin below), and answers the harness's
// questions about them: which methods exist and in which order (Names),
// what a name means (Lookup), how a configuration is resolved, expanded
// and rendered (learn.Spec's Resolve, Expand and Canonical). The
// runner never switches on learner types.
//
// When to bump a learner's Version, and what an Execution parameter must
// prove, is documented on learn.Spec; docs/adding-a-learner.md walks
// through adding a learner.
package methods

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/fgrtbench/fgrtbench/baselines/c45"
	"github.com/fgrtbench/fgrtbench/baselines/cart"
	"github.com/fgrtbench/fgrtbench/baselines/fga"
	"github.com/fgrtbench/fgrtbench/baselines/fuzzycart"
	"github.com/fgrtbench/fgrtbench/baselines/majority"
	"github.com/fgrtbench/fgrtbench/baselines/ripper"
	"github.com/fgrtbench/fgrtbench/fgrt"
	"github.com/fgrtbench/fgrtbench/learn"
)

// builtin registers the learners that come with fgrtbench: one line per
// learner package.
func builtin() {
	Register(fgrt.Spec, fgrt.OptSpec)
	Register(cart.Spec, cart.EntropySpec)
	Register(c45.Spec)
	Register(ripper.Spec)
	Register(fga.Spec)
	Register(majority.Spec)
	RegisterExtra([]string{"clean"}, fuzzycart.Spec)
}

func init() { builtin() }

var (
	mu       sync.RWMutex
	registry = map[string]*learn.Spec{}
	// extraProtocols restricts the methods outside the paper to the
	// protocols the paper study runs them under (RegisterExtra).
	extraProtocols = map[string][]string{}
)

// Register adds methods. It panics on a duplicate name or an invalid
// declaration, which are programming errors caught by the package tests.
// A method without a "default" grid gets the single-point one.
func Register(ms ...*learn.Spec) {
	mu.Lock()
	defer mu.Unlock()
	for _, m := range ms {
		if err := m.Check(); err != nil {
			panic("methods: " + err.Error())
		}
		if _, dup := registry[m.Name]; dup {
			panic("methods: duplicate registration of " + m.Name)
		}
		if _, ok := m.Grids["default"]; !ok {
			// A copy, so that the learner's own declaration is left as written.
			c := *m
			c.Grids = maps.Clone(m.Grids)
			if c.Grids == nil {
				c.Grids = map[string]learn.Grid{}
			}
			c.Grids["default"] = learn.Grid{{}}
			m = &c
		}
		registry[m.Name] = m
	}
}

// RegisterExtra registers methods outside the paper that the paper study
// (reproduce) runs under the given protocols only: FuzzyCART is a row
// beside the paper's methods under the clean protocol, where every method
// selects its configuration by inner cross-validation, and is absent from
// the paper protocol, whose test-fold selection and leakage reproduce the
// authors' experiment and nothing else.
func RegisterExtra(protocols []string, ms ...*learn.Spec) {
	Register(ms...)
	mu.Lock()
	defer mu.Unlock()
	for _, m := range ms {
		extraProtocols[m.Name] = slices.Clone(protocols)
	}
}

// PaperStudyProtocols returns the protocols the paper study runs a method
// under, nil meaning every protocol the study runs.
func PaperStudyProtocols(name string) []string {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(extraProtocols[name])
}

// DefaultNames lists the paper study's default methods: every registered
// one, the extras included (PaperStudyProtocols restricts those).
func DefaultNames() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

// Lookup finds a method by name; the error lists the registered names.
func Lookup(name string) (*learn.Spec, error) {
	mu.RLock()
	defer mu.RUnlock()
	if m, ok := registry[name]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("unknown method %q (registered: %s)", name, strings.Join(namesLocked(), ", "))
}

// Names lists the registered methods in presentation order: the methods
// whose spec has an Order, lowest first (the paper's columns), then any
// others alphabetically.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		oi, oj := registry[out[i]].Order, registry[out[j]].Order
		switch {
		case oi != oj && oi != 0 && oj != 0:
			return oi < oj
		case oi != oj:
			return oi != 0 // ordered methods before unordered ones
		}
		return out[i] < out[j]
	})
	return out
}

// Timed lists the registered methods whose spec is Timed, in presentation
// order: the runtime study's default methods.
func Timed() []string {
	var out []string
	for _, n := range Names() {
		if m, _ := Lookup(n); m.Timed {
			out = append(out, n)
		}
	}
	return out
}

// DisplayName returns the name tables and figures show for a method or a
// study label (without "@variant"): the spec's display name, a label one
// of the specs names, or base itself when no spec knows it.
func DisplayName(base string) string {
	mu.RLock()
	defer mu.RUnlock()
	if m, ok := registry[base]; ok {
		return m.Title()
	}
	for _, m := range registry {
		if name, ok := m.Labels[base]; ok {
			return name
		}
	}
	return base
}
