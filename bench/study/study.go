// Package study is the model of a benchmark study: which protocols,
// datasets and methods (MethodSpec) it runs, how it resolves against the
// registry, the work units it expands to in canonical order with their
// seeds, its identity (every unit's key), its shards, and what the
// manifest records of it. It executes nothing (package runner does) and
// stores nothing (package outdir does).
package study

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// MethodSpec selects a registered method, one of its grids, and parameter
// overrides applied to every grid point.
type MethodSpec struct {
	Name string `json:"name" yaml:"name"`
	// Grid names a grid of the method ("default" when empty).
	Grid string `json:"grid,omitempty" yaml:"grid,omitempty"`
	// Params override parameters at every grid point.
	Params map[string]string `json:"params,omitempty" yaml:"params,omitempty"`
	// Sweep lists values per parameter; their cartesian product (parameters
	// in sorted name order, values in the given order) replaces the named
	// grid. Use it for hyperparameter sweeps.
	Sweep map[string][]string `json:"sweep,omitempty" yaml:"sweep,omitempty"`
	// Selection overrides the protocol's selection rule for grids with more
	// than one point: "test", "inner-cv" or "sweep".
	Selection string `json:"selection,omitempty" yaml:"selection,omitempty"`
	// Label is the method column written to results.csv. Default: Name, or
	// Name@Grid for a non-default grid.
	Label string `json:"label,omitempty" yaml:"label,omitempty"`
	// External declares the command of an external method (Name
	// "external"): a learner in any language run on the unit's files.
	External *external.Spec `json:"external,omitempty" yaml:"external,omitempty"`
	// Protocols restricts the method to some of the study's protocols:
	// it forms units, and so rows, under those only. Absent (nil) means
	// every protocol of the study, and leaves the study's record and
	// identity as they were before the field existed.
	Protocols []string `json:"protocols,omitempty" yaml:"protocols,omitempty"`
	// Baseline declares the method a reference point, like the
	// majority-class baseline: the report's omnibus test and CD diagram
	// leave it out of the ranking and name it as a baseline. It changes
	// no unit: absent (false) leaves the study's record as it was.
	Baseline bool `json:"baseline,omitempty" yaml:"baseline,omitempty"`
}

// RunsUnder reports whether the method forms units under protocol p.
func (m MethodSpec) RunsUnder(p string) bool {
	return m.Protocols == nil || slices.Contains(m.Protocols, p)
}

// checkProtocols refuses a restriction that names an unknown protocol,
// one twice, none at all, or none the study runs: a method with no unit
// would be listed in the study and missing from every table.
func (m MethodSpec) checkProtocols(study []string) error {
	if m.Protocols == nil {
		return nil
	}
	if len(m.Protocols) == 0 {
		return fmt.Errorf("method %s: protocols lists none (omit it to run under every protocol of the study)", m.label())
	}
	if d := firstRepeated(m.Protocols); d != "" {
		return fmt.Errorf("method %s: protocol %q is listed twice in its protocols; list each once", m.label(), d)
	}
	for _, p := range m.Protocols {
		if _, err := protocol.Lookup(p); err != nil {
			return fmt.Errorf("method %s: %v", m.label(), err)
		}
	}
	for _, p := range study {
		if m.RunsUnder(p) {
			return nil
		}
	}
	return fmt.Errorf("method %s runs under %s only, which the study (protocols %s) does not run", m.label(), strings.Join(m.Protocols, ", "), strings.Join(study, ", "))
}

// label returns the results.csv method column of the spec.
func (m MethodSpec) label() string {
	if m.Label != "" {
		return m.Label
	}
	if m.Grid != "" && m.Grid != "default" {
		return m.Name + "@" + m.Grid
	}
	return m.Name
}

// ResultLabel is the method column the spec writes to results.csv.
func (m MethodSpec) ResultLabel() string { return m.label() }

// MethodEntries lists each method label of the study with its registry
// method and whether its results depend on the seed, in study order (what
// the regression gate asks of a baseline's study); methods the registry
// does not know are left out.
func (s Study) MethodEntries() []results.Method {
	var out []results.Method
	for _, ms := range s.Methods {
		m, err := methods.Lookup(ms.Name)
		if err != nil {
			continue
		}
		out = append(out, results.Method{Label: ms.ResultLabel(), Method: ms.Name, Stochastic: m.Stochastic})
	}
	return out
}

// Study is a set of protocols, datasets and methods to evaluate.
type Study struct {
	Name      string           `json:"name,omitempty" yaml:"name,omitempty"`
	Protocols []string         `json:"protocols" yaml:"protocols"`
	Datasets  []string         `json:"datasets" yaml:"datasets"`
	Methods   []MethodSpec     `json:"methods" yaml:"methods"`
	Options   protocol.Options `json:"options" yaml:"options"`
	// Reference is the method label the report's post-hoc comparisons
	// take as their control (each other method against it, Holm over
	// k − 1); "" compares every pair. No part of the identity: a study
	// with another reference is the same experiment.
	Reference string `json:"reference,omitempty" yaml:"reference,omitempty"`
	// DataDir is the directory that the relative paths of data files in
	// Datasets resolve from (DataPath): the spec file's directory
	// (spec.Load), or the baseline's for the study a baseline records;
	// "" is the current directory. It is no part of the study's record:
	// datasets keep the names written in the spec, so that results, unit
	// keys and baselines do not depend on the directory a study ran from.
	DataDir string `json:"-" yaml:"-"`
}

// DataPath is the path a dataset of the study is read from: a relative
// data-file path joined to DataDir, anything else (a registry name, an
// absolute path) as it is.
func (s Study) DataPath(name string) string {
	if s.DataDir == "" || !datasets.IsDataFile(name) || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(s.DataDir, name)
}

// ResolvedMethod is a method spec with its configurations expanded.
type ResolvedMethod struct {
	Spec      MethodSpec
	Label     string
	Method    *learn.Spec
	Configs   []learn.Values
	Selection string // "" = protocol default
}

func (m ResolvedMethod) SelectionFor(p *protocol.Plan) string {
	if len(m.Configs) == 1 && m.Selection != protocol.SelectSweep {
		return protocol.SelectFixed
	}
	if m.Selection != "" {
		return m.Selection
	}
	return p.GridSelection
}

// expectedRows is how many result rows a finished unit of this method has.
func (m ResolvedMethod) ExpectedRows(sel string) int {
	if sel == protocol.SelectInnerCV {
		return 1
	}
	return len(m.Configs)
}

// lookupMethod finds a registered method, or builds an external one.
func lookupMethod(s MethodSpec) (*learn.Spec, error) {
	switch {
	case s.Name == external.Name && s.External == nil:
		return nil, fmt.Errorf("method external needs an external: block with its command")
	case s.External != nil && s.Name != external.Name:
		return nil, fmt.Errorf("method %s: an external: block needs name: external", s.Name)
	case s.External != nil:
		m, err := s.External.Method()
		if err != nil && s.Label != "" {
			err = fmt.Errorf("%s: %w", s.Label, err)
		}
		return m, err
	}
	return methods.Lookup(s.Name)
}

// checkExternalNames refuses, for an external method, a params: or sweep:
// name that its external: block does not declare, naming the declared ones
// (the command and the adapter's checksum are fixed by the block).
func checkExternalNames(s MethodSpec) error {
	if s.External == nil {
		return nil
	}
	var declared []string
	for name := range s.External.Params {
		declared = append(declared, name)
	}
	sort.Strings(declared)
	list := strings.Join(declared, ", ")
	if list == "" {
		list = "none"
	}
	var given []string
	for name := range s.Params {
		given = append(given, name)
	}
	for name := range s.Sweep {
		given = append(given, name)
	}
	sort.Strings(given)
	for _, name := range given {
		if _, ok := s.External.Params[name]; ok {
			continue
		}
		if name == external.ParamCommand || name == external.ParamAdapter {
			return fmt.Errorf("method %s: %s is fixed by the external: block and cannot be given in params or sweep", s.label(), name)
		}
		return fmt.Errorf("method %s: parameter %q is not declared in external.params (declared: %s)", s.label(), name, list)
	}
	return nil
}

func resolveMethod(s MethodSpec) (ResolvedMethod, error) {
	m, err := lookupMethod(s)
	if err != nil {
		return ResolvedMethod{}, err
	}
	if err := checkSweep(s, m); err != nil {
		return ResolvedMethod{}, err
	}
	if err := checkExternalNames(s); err != nil {
		return ResolvedMethod{}, err
	}
	cfgs, err := configsOf(s, m)
	if err != nil {
		return ResolvedMethod{}, err
	}
	if err := checkConstructible(s.label(), m, cfgs); err != nil {
		return ResolvedMethod{}, err
	}
	if err := checkDistinct(s.label(), m, cfgs); err != nil {
		return ResolvedMethod{}, err
	}
	switch s.Selection {
	case "", protocol.SelectTest, protocol.SelectInnerCV, protocol.SelectSweep:
	default:
		return ResolvedMethod{}, fmt.Errorf("method %s: unknown selection %q (valid: test, inner-cv, sweep)", s.Name, s.Selection)
	}
	return ResolvedMethod{Spec: s, Label: s.label(), Method: m, Configs: cfgs, Selection: s.Selection}, nil
}

// configsOf lists a method's configurations: the points of its sweep
// (with its fixed parameters) or its grid's.
func configsOf(s MethodSpec, m *learn.Spec) ([]learn.Values, error) {
	if len(s.Sweep) == 0 {
		grid := s.Grid
		if grid == "" {
			grid = "default"
		}
		return m.Expand(grid, s.Params)
	}
	if s.Grid != "" {
		return nil, fmt.Errorf("method %s: give either grid or sweep, not both", s.Name)
	}
	var cfgs []learn.Values
	for _, point := range cartesian(s.Sweep) {
		for k, v := range s.Params {
			if _, swept := s.Sweep[k]; !swept {
				point[k] = v
			}
		}
		c, err := m.Resolve(point)
		if err != nil {
			return nil, err
		}
		cfgs = append(cfgs, c)
	}
	return cfgs, nil
}

// checkDistinct refuses configurations that differ only in Execution
// parameters (a sweep over workers): they are one configuration of the
// results, and would be reported as two rows of it.
func checkDistinct(label string, m *learn.Spec, cfgs []learn.Values) error {
	seen := make(map[string]int, len(cfgs))
	for i, c := range cfgs {
		key := m.Canonical(c)
		if j, dup := seen[key]; dup && cfgs[j].String() == c.String() {
			// Two grid points that params: (or two spellings of one
			// value) made one configuration: it would be run and ranked
			// twice.
			return fmt.Errorf("method %s: configurations %d and %d are one configuration (%s); list each once", label, j+1, i+1, key)
		} else if dup {
			return fmt.Errorf("method %s: configurations %d and %d differ only in %s, which change how the learner runs, not its results; sweep or grid other parameters", label, j+1, i+1, strings.Join(executionNames(m), ", "))
		}
		seen[key] = i
	}
	return nil
}

func executionNames(m *learn.Spec) []string {
	var out []string
	for _, p := range m.Params {
		if p.Execution {
			out = append(out, p.Name)
		}
	}
	return out
}

// checkConstructible builds a trainer for every configuration, so that a
// combination of parameters a learner refuses (each value valid on its own,
// e.g. fga's partition=paper with partitions=evolved) is an error of the
// spec before any unit runs, not a failure of every unit.
func checkConstructible(label string, m *learn.Spec, cfgs []learn.Values) error {
	for _, c := range cfgs {
		if _, err := m.New(c, 0); err != nil {
			if len(cfgs) > 1 {
				return fmt.Errorf("method %s, configuration %s: %v", label, c, err)
			}
			return fmt.Errorf("method %s: %v", label, err)
		}
	}
	return nil
}

// cartesian expands a sweep into points; parameters vary in sorted name
// order with the last name varying fastest.
func cartesian(sweep map[string][]string) []map[string]string {
	names := make([]string, 0, len(sweep))
	for k := range sweep {
		names = append(names, k)
	}
	sort.Strings(names)
	points := []map[string]string{{}}
	for _, n := range names {
		var next []map[string]string
		for _, p := range points {
			for _, v := range sweep[n] {
				q := make(map[string]string, len(p)+1)
				for k, x := range p {
					q[k] = x
				}
				q[n] = v
				next = append(next, q)
			}
		}
		points = next
	}
	return points
}

// Unit is one work unit: one method evaluated on one fold.
type Unit struct {
	Protocol string
	Dataset  string
	Method   int // index into the resolved methods
	Label    string
	Repeat   int
	Fold     int
	Seed     int64
	// Key is the unit's results.csv key (package identity); empty in
	// UnitsOf, which runs without the datasets' checksums.
	Key string
	// Rows is the number of result rows the finished unit has.
	Rows int
}

// validate checks the study and resolves its methods.
func (s Study) Resolve() ([]ResolvedMethod, error) {
	if err := s.checkLists(); err != nil {
		return nil, err
	}
	if err := s.Options.Validate(); err != nil {
		return nil, err
	}
	if s.Options.Missing == protocol.MissingImpute && slices.Contains(s.Protocols, "paper") {
		return nil, fmt.Errorf("missing-value policy impute applies to the clean and holdout protocols only: the paper protocol reproduces the authors' drop of incomplete rows (run the paper protocol with drop, or impute with --protocol clean or holdout)")
	}
	if err := s.checkSize(); err != nil {
		return nil, err
	}
	var out []ResolvedMethod
	seen := map[string]bool{}
	for _, ms := range s.Methods {
		rm, err := s.resolveIn(ms)
		if err != nil {
			return nil, err
		}
		if seen[rm.Label] {
			return nil, fmt.Errorf("two methods of the study write the label %q; give one a distinct label", rm.Label)
		}
		if strings.ContainsAny(rm.Label, ",\n/#") {
			return nil, fmt.Errorf("method label %q may not contain ',', '/', '#' or newlines", rm.Label)
		}
		if formulaLike(rm.Label) {
			return nil, fmt.Errorf("method label %q begins with %q, which spreadsheets opening the CSV outputs run as a formula; begin it with a letter or digit", rm.Label, rm.Label[:1])
		}
		seen[rm.Label] = true
		out = append(out, rm)
	}
	// Labels name report tables and figures (sweep-<protocol>-<label>):
	// two labels one file name would hold are refused now, not after the
	// study ran.
	var labels []string
	for _, rm := range out {
		labels = append(labels, rm.Label)
	}
	if a, b, clash := safename.Collision(labels); clash {
		return nil, fmt.Errorf("method labels %q and %q would name the same report file (%s); give one a distinct label", a, b, safename.Component(b))
	}
	return out, nil
}

// checkLists refuses an empty study, an unknown protocol, a protocol or
// dataset listed twice (its units would run twice under one key and leave
// two selected rows per fold, which no report can read), and a dataset
// name a spreadsheet would run as a formula.
func (s Study) checkLists() error {
	if len(s.Protocols) == 0 || len(s.Datasets) == 0 || len(s.Methods) == 0 {
		return fmt.Errorf("study needs at least one protocol, dataset and method")
	}
	for _, p := range s.Protocols {
		if _, err := protocol.Lookup(p); err != nil {
			return err
		}
	}
	if d := firstRepeated(s.Protocols); d != "" {
		return fmt.Errorf("protocol %q is listed twice; list each protocol once", d)
	}
	if d := firstRepeated(s.Datasets); d != "" {
		return fmt.Errorf("dataset %q is listed twice; list each dataset once", d)
	}
	for _, d := range s.Datasets {
		if formulaLike(d) {
			return fmt.Errorf("dataset %q begins with %q, which spreadsheets opening the CSV outputs run as a formula; rename the file (or give it as ./%s)", d, d[:1], d)
		}
	}
	return nil
}

// resolveIn resolves one method of the study and checks its selection
// under each protocol it runs under and its label.
func (s Study) resolveIn(ms MethodSpec) (ResolvedMethod, error) {
	if err := ms.checkProtocols(s.Protocols); err != nil {
		return ResolvedMethod{}, err
	}
	rm, err := resolveMethod(ms)
	if err != nil {
		return ResolvedMethod{}, err
	}
	for _, p := range s.Protocols {
		if !ms.RunsUnder(p) {
			continue
		}
		if err := checkSelection(rm, p, s.Layout(p)); err != nil {
			return ResolvedMethod{}, err
		}
	}
	return rm, checkLabel(rm)
}

// formulaLike reports a name that a spreadsheet would read as a formula
// when it opens a CSV output holding it (CSV injection).
func formulaLike(name string) bool {
	return name != "" && strings.ContainsRune("=+-@\t\r", rune(name[0]))
}

// checkLabel refuses a label that reports would read as another method:
// tables name a method and compare it with the paper's column by its label
// ("fgrt-opt" is shown as FGRT* and set against the paper's FGRT*, "cart"
// against its CART), so CART labelled "fgrt-opt" would be a misattributed
// result. "fgrt-fixed" is shown as FGRT with Q1 and Q2 fixed, so it must be
// that: fgrt with fix_q1 and fix_q2 true in every configuration.
func checkLabel(m ResolvedMethod) error {
	base, _, _ := strings.Cut(m.Label, "@")
	if base == m.Spec.Name {
		return nil
	}
	if _, err := methods.Lookup(base); err == nil {
		return fmt.Errorf("method %s: label %q names the method %s, as which reports would show and compare it; choose another label", m.Spec.Name, m.Label, base)
	}
	if base == "fgrt-fixed" {
		fixed := m.Spec.Name == "fgrt"
		for _, c := range m.Configs {
			fixed = fixed && c["fix_q1"] == "true" && c["fix_q2"] == "true"
		}
		if !fixed {
			return fmt.Errorf("method %s: label %q is shown as FGRT with quirks Q1 and Q2 fixed; it needs method fgrt with fix_q1 and fix_q2 \"true\" (or choose another label)", m.Spec.Name, m.Label)
		}
	}
	return nil
}

// firstRepeated returns the first name that occurs twice in names, or "".
func firstRepeated(names []string) string {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return n
		}
		seen[n] = true
	}
	return ""
}

// layout returns the unit layout of a protocol of the study (validated by
// resolve).
func (s Study) Layout(name string) protocol.Layout {
	p, err := protocol.Lookup(name)
	if err != nil {
		return protocol.Layout{}
	}
	return p.Layout(s.Options)
}

// checkSelection refuses a method whose grid cannot be resolved under a
// protocol: inner-cv without inner folds, or a grid under a protocol with
// no default selection.
func checkSelection(m ResolvedMethod, proto string, l protocol.Layout) error {
	sel := m.Selection
	if len(m.Configs) == 1 && sel != protocol.SelectSweep {
		return nil
	}
	if sel == "" {
		sel = l.GridSelection
	}
	switch {
	case sel == "":
		return fmt.Errorf("method %s: protocol %s has no default selection for a grid of %d points (holdout_train 64 leaves no validation rows); give selection test or sweep, or one configuration", m.Label, proto, len(m.Configs))
	case sel == protocol.SelectInnerCV && !l.InnerCV:
		return fmt.Errorf("method %s: selection inner-cv needs inner folds, which protocol %s has not (it selects by test accuracy or needs an explicit selection)", m.Label, proto)
	}
	return nil
}

// repeatsOf is how many repeats method m runs under layout l: a protocol
// whose repeats only re-seed learners runs a deterministic method once.
func repeatsOf(m ResolvedMethod, l protocol.Layout) int {
	if l.LearnerRepeats && !m.Method.Stochastic {
		return 1
	}
	return l.Repeats
}

// learnerSeed derives the seed a stochastic learner gets for one unit, so
// that folds and repeats get independent streams.
func LearnerSeed(u Unit) int64 {
	x := uint64(u.Seed)*0x9E3779B97F4A7C15 ^ uint64(u.Repeat+1)*0xBF58476D1CE4E5B9 ^ uint64(u.Fold+1)*0x94D049BB133111EB
	x ^= x >> 31
	x *= 0xD6E8FEB86659FD93
	x ^= x >> 29
	return int64(x >> 1)
}
