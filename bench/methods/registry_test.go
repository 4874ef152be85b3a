package methods

import (
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// paperMethods are the methods of the paper's tables, in its column
// order, with their display names and columns: the registry must hold them
// whatever else is registered.
var paperMethods = []struct{ name, display, column string }{
	{"fgrt", "FGRT", "FGRT"},
	{"fgrt-opt", "FGRT*", "FGRT*"},
	{"cart", "CART", "CART"},
	{"c45-entropy", "C4.5 (entropy, paper)", "C4.5"},
	{"c45", "C4.5 (J48)", "C4.5"},
	{"ripper", "RIPPER", "RIPPER"},
	{"fga", "FGA", "FGA"},
}

// TestBuiltinDeclarations checks what the specs of the registered learners
// declare for the views and the runtime study (the presentation order,
// display names, paper columns, the timed methods and those the paper
// study runs under some protocols only, which
// used to be lists of their own in reports, timing and here). The list of
// methods is the registry's own, so that registering a learner as
// docs/adding-a-learner.md says needs no edit here; the paper's methods
// are pinned, and every registered one must pass its declaration's checks.
func TestBuiltinDeclarations(t *testing.T) {
	names := Names()
	var paper []string
	for _, pm := range paperMethods {
		paper = append(paper, pm.name)
	}
	// The paper's methods lead the presentation order, as its columns do.
	if len(names) < len(paper) || !slices.Equal(names[:len(paper)], paper) {
		t.Errorf("Names() = %v, want the paper's methods %v first", names, paper)
	}
	if got, want := filter(Timed(), paper), []string{"fgrt", "cart", "c45-entropy", "c45", "ripper", "fga"}; !slices.Equal(got, want) {
		t.Errorf("timed paper methods = %v, want %v", got, want)
	}
	// FuzzyCART is in the paper study, under the clean protocol only: the
	// paper protocol's outputs stay the reproduction's.
	if got, want := DefaultNames(), Names(); !slices.Equal(got, want) {
		t.Errorf("DefaultNames() = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		name string
		want []string
	}{{"fuzzycart", []string{"clean"}}, {"fgrt", nil}, {"majority", nil}, {"unknown-method", nil}} {
		if got := PaperStudyProtocols(tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("PaperStudyProtocols(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}

	for _, tc := range append(paperMethods, []struct{ name, display, column string }{
		{"majority", "Majority", ""},
		{"fuzzycart", "FuzzyCART (Ex-Fuzzy 2.1.5, not in the paper)", ""},
		{"fgrt-fixed", "FGRT (Q1+Q2 fixed)", ""},
		{"unknown-method", "unknown-method", ""},
	}...) {
		if got := DisplayName(tc.name); got != tc.display {
			t.Errorf("DisplayName(%q) = %q, want %q", tc.name, got, tc.display)
		}
		col, ok := PaperColumn(tc.name)
		if col != tc.column || ok != (tc.column != "") {
			t.Errorf("PaperColumn(%q) = %q, %v, want %q", tc.name, col, ok, tc.column)
		}
	}

	for _, n := range names {
		checkDeclaration(t, n)
	}
}

// checkDeclaration holds one registered method to what the harness needs
// of its declaration: a valid spec under its own name, a distinct place in
// the presentation order, a column only if it has an order, grids that
// resolve, and a constructor that accepts its defaults.
func checkDeclaration(t *testing.T, name string) {
	t.Helper()
	m, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(); err != nil || m.Name != name {
		t.Errorf("%s: registered as %q, Check: %v", name, m.Name, err)
	}
	if m.Doc == "" {
		t.Errorf("%s: no Doc (fgrtbench methods prints it)", name)
	}
	for _, other := range Names() {
		if o, _ := Lookup(other); other != name && m.Order != 0 && o.Order == m.Order {
			t.Errorf("%s and %s share Order %d", name, other, m.Order)
		}
	}
	if m.PaperColumn != "" && m.Order == 0 {
		t.Errorf("%s: paper column %q without an Order", name, m.PaperColumn)
	}
	if _, ok := m.Grids["default"]; !ok {
		t.Errorf("%s: no default grid", name)
	}
	for _, g := range m.GridNames() {
		if _, err := m.Expand(g, nil); err != nil {
			t.Errorf("%s: grid %s: %v", name, g, err)
		}
	}
	if _, err := m.New(m.Defaults(), 1); err != nil {
		t.Errorf("%s: New(defaults): %v", name, err)
	}
}

// filter keeps the names of list that are in keep, in list's order.
func filter(list, keep []string) []string {
	var out []string
	for _, n := range list {
		if slices.Contains(keep, n) {
			out = append(out, n)
		}
	}
	return out
}

// TestNamesOrder: methods with an Order come first, lowest first; the
// others follow alphabetically, whatever the registration order.
func TestNamesOrder(t *testing.T) {
	saved := registry
	defer func() { registry = saved }()
	registry = map[string]*learn.Spec{}
	mk := func(name string, order int) *learn.Spec {
		return &learn.Spec{Name: name, Version: 1, Order: order, New: func(learn.Values, int64) (learn.Trainer, error) { return nil, nil }}
	}
	Register(mk("zeta", 0), mk("b", 20), mk("alpha", 0), mk("a", 10), mk("c", 20))
	if got, want := Names(), []string{"a", "b", "c", "alpha", "zeta"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}

// TestRegisterRefusesBadSpecs: a duplicate name, a Version below 1, a
// default its own bounds reject and a missing constructor are programming
// errors that panic at registration with a message that names the method.
func TestRegisterRefusesBadSpecs(t *testing.T) {
	saved := registry
	defer func() { registry = saved }()
	newOK := func(learn.Values, int64) (learn.Trainer, error) { return nil, nil }
	cases := []struct {
		name string
		m    *learn.Spec
		want string
	}{
		{"duplicate", &learn.Spec{Name: "dup", Version: 1, New: newOK}, "duplicate registration of dup"},
		{"version", &learn.Spec{Name: "v0", New: newOK}, "v0: Version must be at least 1"},
		{"default", &learn.Spec{Name: "bad", Version: 1, New: newOK, Params: []learn.Param{{Name: "k", Kind: learn.Int, Default: "0", Min: 1, HasMin: true}}}, "bad: bad default"},
		{"constructor", &learn.Spec{Name: "nonew", Version: 1}, "nonew: no constructor"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			registry = map[string]*learn.Spec{"dup": {Name: "dup"}}
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tc.want) {
					t.Errorf("panic %v, want one containing %q", r, tc.want)
				}
			}()
			Register(tc.m)
		})
	}
}

// TestRegisterKeepsTheSpec: the registry adds the single-point default
// grid to a spec without one on its own copy, leaving the learner
// package's declaration as written.
func TestRegisterKeepsTheSpec(t *testing.T) {
	saved := registry
	defer func() { registry = saved }()
	registry = map[string]*learn.Spec{}
	spec := &learn.Spec{Name: "bare", Version: 1, New: func(learn.Values, int64) (learn.Trainer, error) { return nil, nil }}
	Register(spec)
	m, err := Lookup("bare")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Grids["default"]; !ok || spec.Grids != nil {
		t.Errorf("registered grids %v, declared grids %v", m.Grids, spec.Grids)
	}
}
