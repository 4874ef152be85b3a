// Package spec reads study specifications (JSON or YAML) and provides the
// built-in study that reproduces the paper.
package spec

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// file is the on-disk form; options are optional and default to the clean
// protocol's defaults. Options are pointers so that an absent key (the
// default) is told apart from an explicit value such as "folds: 0", which
// is an error rather than the default.
type file struct {
	Name       string             `json:"name" yaml:"name"`
	Protocols  []string           `json:"protocols" yaml:"protocols"`
	Datasets   []string           `json:"datasets" yaml:"datasets"`
	Methods    []study.MethodSpec `json:"methods" yaml:"methods"`
	Folds      *int               `json:"folds" yaml:"folds"`
	Repeats    *int               `json:"repeats" yaml:"repeats"`
	Seed       *int64             `json:"seed" yaml:"seed"`
	InnerFolds *int               `json:"inner_folds" yaml:"inner_folds"`
	// HoldoutTrain is protocol.Options.HoldoutTrain ("80" or "64").
	HoldoutTrain string `json:"holdout_train" yaml:"holdout_train"`
	// Missing is the missing-value policy: drop (the default), impute or
	// error (protocol.Options.Missing).
	Missing string `json:"missing" yaml:"missing"`
	// Reference is the control method of the report's post-hoc
	// comparisons (study.Study.Reference): a label of Methods.
	Reference string `json:"reference" yaml:"reference"`
}

// checkPresent refuses keys that are present but say nothing: "datasets:
// []" must not mean "all ten datasets", nor "folds:" (null) the default.
// Only an absent key takes the default.
func checkPresent(data []byte, format string) error {
	present := map[string]bool{}
	empty := map[string]bool{}
	switch format {
	case "json":
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil {
			return nil // the typed decode reports it
		}
		for k, v := range raw {
			present[k] = true
			t := strings.TrimSpace(string(v))
			empty[k] = t == "null" || t == "[]" || t == "{}" || t == `""`
		}
	default:
		var raw map[string]any
		if err := yaml.Unmarshal(data, &raw); err != nil {
			return nil
		}
		for k, v := range raw {
			present[k] = true
			switch x := v.(type) {
			case nil:
				empty[k] = true
			case []any:
				empty[k] = len(x) == 0
			case map[string]any:
				empty[k] = len(x) == 0
			case string:
				empty[k] = x == ""
			}
		}
	}
	for _, k := range []string{"name", "protocols", "datasets", "methods", "folds", "repeats", "seed", "inner_folds", "holdout_train", "missing", "reference"} {
		if !present[k] || !empty[k] {
			continue
		}
		if k == "datasets" {
			return fmt.Errorf("spec: datasets is empty; list at least one dataset, or omit the key for the ten of the paper")
		}
		return fmt.Errorf("spec: %s is given but empty; give a value or omit the key for the default", k)
	}
	return nil
}

// checkUnusedOptions refuses the spec's protocol options that no protocol
// of the study reads (see UnreadOption).
func checkUnusedOptions(f file, protocols []string) error {
	var given []string
	for _, g := range []struct {
		name string
		set  bool
	}{{"folds", f.Folds != nil}, {"repeats", f.Repeats != nil}, {"seed", f.Seed != nil}, {"inner_folds", f.InnerFolds != nil}, {"holdout_train", f.HoldoutTrain != ""}} {
		if g.set {
			given = append(given, g.name)
		}
	}
	if err := UnreadOption(given, protocols); err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	return nil
}

// UnreadOption refuses the first of the given protocol options (by JSON
// name) that none of the protocols reads (protocol.Protocol.Reads: the
// paper protocol fixes 5 folds, 1 repeat and seed 42; the holdout protocol
// reads only repeats and holdout_train): it would be silently ignored. The
// message begins with the option's name, for the caller to prefix (a spec
// key, a command-line flag).
func UnreadOption(given, protocols []string) error {
	for _, name := range given {
		readers := protocol.Readers(name)
		if slices.ContainsFunc(protocols, func(p string) bool { return slices.Contains(readers, p) }) {
			continue
		}
		owner := "the " + strings.Join(readers, " and ") + " protocol"
		if len(readers) > 1 {
			owner += "s"
		}
		note := ""
		if slices.Contains(protocols, "paper") {
			note = "; the paper protocol fixes 5 folds, 1 repeat and seed 42"
		}
		return fmt.Errorf("%s is used by none of the study's protocols (%s): it is an option of %s%s (remove it, or add that protocol)", name, strings.Join(protocols, ", "), owner, note)
	}
	return nil
}

// unknownField is how yaml.v3 words a key the spec's types do not have.
var unknownField = regexp.MustCompile(`field (\S+) not found in type \S+`)

// yamlError turns yaml.v3's multi-line list of type errors ("yaml:
// unmarshal errors:\n  line 3: field foo not found in type spec.file") into
// one line that names the keys without Go type names.
func yamlError(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		msgs[i] = unknownField.ReplaceAllString(strings.TrimSpace(m), "unknown key $1")
	}
	return strings.Join(msgs, "; ")
}

// parse reads a spec; format is "json" or "yaml". Unknown fields are errors.
// Relative paths (data files, an external method's command and adapter)
// resolve against dir: the spec file's directory for Load, the current
// directory when empty. It stops with ctx's error between its steps: each
// is linear in the spec's size (a spec at safefile.SpecCap reads in well
// under a second), so a first SIGINT or SIGTERM stops the loading at once.
func parse(ctx context.Context, data []byte, format, dir string) (study.Study, error) {
	if err := ctx.Err(); err != nil {
		return study.Study{}, err
	}
	f, err := decodeFile(data, format)
	if err != nil {
		return study.Study{}, err
	}
	if err := ctx.Err(); err != nil {
		return study.Study{}, err
	}
	s := study.Study{Name: f.Name, Protocols: f.Protocols, Datasets: f.Datasets, Methods: f.Methods, Options: protocol.DefaultOptions()}
	if len(s.Protocols) == 0 {
		s.Protocols = []string{"clean"}
	}
	if len(s.Datasets) == 0 {
		s.Datasets = datasets.Names()
	}
	if err := checkUnusedOptions(f, s.Protocols); err != nil {
		return study.Study{}, err
	}
	if s.Options, err = f.options(s.Options); err != nil {
		return study.Study{}, err
	}
	// Data files resolve from the spec's directory, as an external
	// method's command does, so that a spec means the same data from any
	// working directory.
	s.DataDir = dir
	for _, d := range s.Datasets {
		if err := datasets.CheckName(s.DataPath(d)); err != nil {
			return study.Study{}, fmt.Errorf("spec: %v", err)
		}
	}
	// Pin each external adapter's checksum into the study, so that the
	// manifest records it and a changed adapter cannot join this study.
	for _, m := range s.Methods {
		if err := ctx.Err(); err != nil {
			return study.Study{}, err
		}
		if m.External != nil && m.Name == external.Name {
			m.External.BaseDir = dir
			if err := m.External.Pin(); err != nil {
				return study.Study{}, fmt.Errorf("spec: method %s: %v", cmp.Or(m.Label, m.Name), err)
			}
		}
	}
	units, err := study.UnitsOf(s)
	if err != nil {
		return study.Study{}, fmt.Errorf("spec: %v", err)
	}
	if err := study.CheckReference(f.Reference, units); err != nil {
		return study.Study{}, fmt.Errorf("spec: reference: %v", err)
	}
	s.Reference = f.Reference
	return s, ctx.Err()
}

// decodeFile checks a spec's text strictly (duplicate keys, positions)
// and decodes it, refusing unknown fields and a missing required one.
func decodeFile(data []byte, format string) (file, error) {
	var f file
	if format == "json" || format == "yaml" {
		if err := strict(data, format); err != nil {
			return f, fmt.Errorf("spec: %v", err)
		}
	}
	switch format {
	case "json":
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return f, fmt.Errorf("spec: %v", err)
		}
	case "yaml":
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&f); err != nil {
			return f, fmt.Errorf("spec: %s", yamlError(err))
		}
	default:
		return f, fmt.Errorf("spec: unknown format %q (json or yaml)", format)
	}
	return f, checkPresent(data, format)
}

// options sets the protocol options the spec gives over the defaults o.
func (f file) options(o protocol.Options) (protocol.Options, error) {
	if f.Folds != nil {
		o.Folds = *f.Folds
	}
	if f.Repeats != nil {
		o.Repeats = *f.Repeats
	}
	if f.Seed != nil {
		o.Seed = *f.Seed
	}
	if f.InnerFolds != nil {
		o.InnerFolds = *f.InnerFolds
	}
	// "80" is the default: stored as "" so that both spellings are one
	// experiment (one unit identity).
	if f.HoldoutTrain != protocol.HoldoutTrain80 {
		o.HoldoutTrain = f.HoldoutTrain
	}
	// "drop" is the default, stored as "" for the same reason; every
	// protocol applies drop and error, and Resolve refuses impute with the
	// paper protocol, so the option is not checked as unread.
	missing, err := protocol.NormalizeMissing(f.Missing)
	if err != nil {
		return o, fmt.Errorf("spec: missing: %v", err)
	}
	o.Missing = missing
	return o, nil
}

// Load reads a spec file, choosing the format by extension (.json, .yaml, .yml).
// Relative paths resolve against the spec file's directory, made absolute
// when the spec is loaded: data files (Study.DataDir) and an external
// method's command and adapter, which also runs there.
func Load(path string) (study.Study, error) {
	return LoadContext(context.Background(), path)
}

// LoadContext is Load that stops with ctx's error (context.Canceled at a
// first signal) as soon as ctx is done.
func LoadContext(ctx context.Context, path string) (study.Study, error) {
	data, err := safefile.ReadFile(path, safefile.SpecCap)
	if err != nil {
		return study.Study{}, err
	}
	format := "yaml"
	if strings.EqualFold(filepath.Ext(path), ".json") {
		format = "json"
	}
	// Made absolute once, here: filepath.Join(".", "./learner") is
	// "learner", which exec.LookPath would then look for on PATH.
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return study.Study{}, fmt.Errorf("%s: %v", path, err)
	}
	s, err := parse(ctx, data, format, dir)
	if errors.Is(err, context.Canceled) {
		return s, err
	}
	if err != nil {
		return s, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// PaperMethods returns the method specs of the paper reproduction for the
// given registered method names (when empty, all registered methods,
// methods.DefaultNames, those outside the paper restricted to their
// protocols, methods.PaperStudyProtocols):
// every method on its default grid, plus the named variants that exist in
// the registry — CART and C4.5 with the paper text's grids, FGRT with the
// reference quirks fixed, and one-factor-at-a-time sweeps of FGRT with the
// quirks on and off for the ablation figure.
func PaperMethods(names []string, variants bool) ([]study.MethodSpec, error) {
	if len(names) == 0 {
		names = methods.DefaultNames()
	}
	var out []study.MethodSpec
	for _, n := range names {
		m, err := methods.Lookup(n)
		if err != nil {
			return nil, err
		}
		// A method outside the paper runs under the protocols the
		// registry gives it (FuzzyCART: clean only).
		out = append(out, study.MethodSpec{Name: n, Protocols: methods.PaperStudyProtocols(n)})
		if !variants {
			continue
		}
		if _, ok := m.Grids["text"]; ok {
			out = append(out, study.MethodSpec{Name: n, Grid: "text"})
		}
		if n == "fgrt" {
			fixed := map[string]string{"fix_q1": "true", "fix_q2": "true"}
			if _, ok := m.Param("fix_q1"); ok {
				out = append(out, study.MethodSpec{Name: n, Params: fixed, Label: "fgrt-fixed"})
			}
			if _, ok := m.Grids["ofat"]; ok {
				out = append(out, study.MethodSpec{Name: n, Grid: "ofat", Selection: protocol.SelectSweep})
				if _, ok := m.Param("fix_q1"); ok {
					out = append(out, study.MethodSpec{Name: n, Grid: "ofat", Selection: protocol.SelectSweep, Params: fixed, Label: "fgrt-fixed@ofat"})
				}
			}
		}
	}
	return out, nil
}

// Paper returns the built-in study that reproduces the paper: the given
// protocols ("paper", "clean" or both), datasets (all ten when empty) and
// methods (all registered when empty).
func Paper(protocols, datasetNames, methodNames []string, variants bool) (study.Study, error) {
	ms, err := PaperMethods(methodNames, variants)
	if err != nil {
		return study.Study{}, err
	}
	if len(datasetNames) == 0 {
		datasetNames = datasets.Names()
	}
	for _, d := range datasetNames {
		if err := datasets.CheckName(d); err != nil {
			return study.Study{}, err
		}
	}
	if len(protocols) == 0 {
		protocols = []string{"paper", "clean"}
	}
	if len(methodNames) == 0 {
		// The default list leaves out a restricted method none of the
		// chosen protocols runs (FuzzyCART under --protocol paper); one
		// named in --methods is kept, and Resolve says why it cannot run.
		ms = slices.DeleteFunc(ms, func(m study.MethodSpec) bool {
			return !slices.ContainsFunc(protocols, m.RunsUnder)
		})
	}
	s := study.Study{Name: "paper", Protocols: protocols, Datasets: datasetNames, Methods: ms, Options: protocol.DefaultOptions()}
	if _, err := study.UnitsOf(s); err != nil {
		return s, err
	}
	return s, nil
}
