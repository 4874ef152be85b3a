package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/external/externaltest"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

const yamlSpec = `
name: sweep
protocols: [clean]
datasets: [wine, zoo]
folds: 3
repeats: 2
seed: 7
inner_folds: 4
methods:
  - name: fgrt
    sweep: {max_rules: ["5", "10"], coverage_threshold: ["0", "0.05"]}
    selection: sweep
  - name: cart
    grid: text
`

const jsonSpec = `{"name": "j", "protocols": ["paper"], "datasets": ["wine"],
 "methods": [{"name": "fgrt", "params": {"fix_q2": "true"}, "label": "fgrt-q2"}]}`

func TestParseYAMLAndJSON(t *testing.T) {
	s, err := Parse([]byte(yamlSpec), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Options.Folds != 3 || s.Options.Repeats != 2 || s.Options.Seed != 7 || s.Options.InnerFolds != 4 {
		t.Fatalf("options %+v", s.Options)
	}
	units, err := study.UnitsOf(s)
	if err != nil {
		t.Fatal(err)
	}
	// 2 datasets x 2 methods x 2 repeats x 3 folds.
	if len(units) != 24 {
		t.Fatalf("%d units", len(units))
	}
	if units[0].Label != "fgrt" || units[6].Label != "cart@text" {
		t.Fatalf("labels %s %s", units[0].Label, units[6].Label)
	}
	j, err := Parse([]byte(jsonSpec), "json")
	if err != nil {
		t.Fatal(err)
	}
	if j.Options.Folds != 5 || j.Methods[0].Label != "fgrt-q2" {
		t.Fatalf("json defaults %+v", j)
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"unknown field":   "protocols: [clean]\nmethods: [{name: fgrt}]\nfoldz: 3\n",
		"unknown dataset": "datasets: [nope]\nmethods: [{name: fgrt}]\n",
		"unknown method":  "methods: [{name: nope}]\n",
		"unknown param":   "methods: [{name: fgrt, params: {max_rulez: '3'}}]\n",
		"bad value":       "methods: [{name: fgrt, sweep: {max_rules: ['0']}}]\n",
		"grid and sweep":  "methods: [{name: fgrt, grid: ofat, sweep: {max_rules: ['3']}}]\n",
		"no methods":      "datasets: [wine]\n",
	}
	for name, text := range cases {
		if _, err := Parse([]byte(text), "yaml"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// An unknown key is one line naming the key and its line, without the
	// Go type it was decoded into.
	_, err := Parse([]byte("protocols: [clean]\nmethods: [{name: fgrt, lable: x}]\nfoldz: 3\n"), "yaml")
	if want := "spec: line 2: unknown key lable; line 3: unknown key foldz"; err == nil || err.Error() != want {
		t.Errorf("unknown keys: got %v, want %q", err, want)
	}
	if _, err := Parse([]byte(`{"methods":[{"name":"fgrt"}],"extra":1}`), "json"); err == nil {
		t.Error("json unknown field accepted")
	}
}

func TestLoadByExtension(t *testing.T) {
	dir := t.TempDir()
	y := filepath.Join(dir, "s.yml")
	j := filepath.Join(dir, "s.json")
	os.WriteFile(y, []byte(yamlSpec), 0o644)
	os.WriteFile(j, []byte(jsonSpec), 0o644)
	if _, err := Load(y); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(j); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(j, []byte("{"), 0o644)
	if _, err := Load(j); err == nil || !strings.Contains(err.Error(), "s.json") {
		t.Fatalf("error must name the file: %v", err)
	}
}

func TestPaperStudy(t *testing.T) {
	s, err := Paper(nil, nil, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]bool{}
	for _, m := range s.Methods {
		labels[m.Name+"|"+m.Label+"|"+m.Grid] = true
	}
	for _, want := range []string{"fgrt||", "fgrt-opt||", "cart||", "cart||text", "c45-entropy||text", "fgrt|fgrt-fixed|", "fgrt||ofat", "fgrt|fgrt-fixed@ofat|ofat"} {
		if !labels[want] {
			t.Errorf("paper study lacks %s (has %v)", want, labels)
		}
	}
	if len(s.Datasets) != 10 || len(s.Protocols) != 2 {
		t.Fatalf("datasets %d protocols %d", len(s.Datasets), len(s.Protocols))
	}
	if _, err := Paper([]string{"paper"}, []string{"wine"}, []string{"nope"}, false); err == nil {
		t.Fatal("unknown method accepted")
	}
	// FuzzyCART is in the default study under the clean protocol only
	// (the paper protocol's rows stay the paper's); the default list of a
	// paper-only study leaves it out; named with the paper protocol only,
	// it is refused with one line saying why.
	if !labels["fuzzycart||"] {
		t.Error("the default paper study lacks fuzzycart")
	}
	for _, m := range s.Methods {
		want := []string(nil)
		if m.Name == "fuzzycart" {
			want = []string{"clean"}
		}
		if !slices.Equal(m.Protocols, want) {
			t.Errorf("paper study method %s: protocols %v, want %v", m.ResultLabel(), m.Protocols, want)
		}
	}
	paperOnly, err := Paper([]string{"paper"}, []string{"wine"}, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range paperOnly.Methods {
		if m.Name == "fuzzycart" {
			t.Error("the paper-protocol-only default study lists fuzzycart, which it cannot run")
		}
	}
	named, err := Paper([]string{"clean"}, []string{"wine"}, []string{"fgrt", "fuzzycart"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(named.Methods) != 2 || named.Methods[1].Name != "fuzzycart" {
		t.Errorf("named methods: %+v", named.Methods)
	}
	_, err = Paper([]string{"paper"}, []string{"wine"}, []string{"fgrt", "fuzzycart"}, false)
	if err == nil || !strings.Contains(err.Error(), "method fuzzycart runs under clean only, which the study (protocols paper) does not run") {
		t.Errorf("fuzzycart named under the paper protocol only: err %v", err)
	}
}

// TestREADMEExampleParses keeps the spec examples of the README valid.
func TestREADMEExampleParses(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	for _, c := range []struct {
		marker string
		units  int    // 0: not checked
		file   string // the committed spec the README shows, if any
	}{
		{"# sweep.yaml", 0, ""},
		{"# fga-holdout.yaml", 100, "../../examples/specs/fga-holdout.yaml"}, // ten datasets x ten seeds
	} {
		start := strings.Index(text, c.marker)
		if start < 0 {
			t.Fatalf("README has no %s example", c.marker)
		}
		end := strings.Index(text[start:], "```")
		if c.file != "" {
			// scripts/speed.sh times the file; the README must show what it timed.
			b, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != text[start:start+end] {
				t.Errorf("README's %s example differs from %s", c.marker, c.file)
			}
		}
		s, err := Parse([]byte(text[start:start+end]), "yaml")
		if err != nil {
			t.Fatalf("README example %s: %v", c.marker, err)
		}
		units, err := study.UnitsOf(s)
		if err != nil {
			t.Fatal(err)
		}
		if c.units != 0 && len(units) != c.units {
			t.Errorf("%s: %d units, want %d", c.marker, len(units), c.units)
		}
	}
}

func TestHoldoutSpec(t *testing.T) {
	spec := `
protocols: [holdout]
datasets: [wine, zoo]
repeats: 10
holdout_train: "64"
methods:
  - name: fga
    params: {partitions: fixed}
  - name: cart
`
	s, err := Parse([]byte(spec), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	units, err := study.UnitsOf(s)
	if err != nil {
		t.Fatal(err)
	}
	// 2 datasets x (10 learner seeds of fga + 1 run of the deterministic cart).
	if len(units) != 22 || s.Options.HoldoutTrain != "64" {
		t.Fatalf("%d units, options %+v", len(units), s.Options)
	}
	if s.Methods[0].Params["partitions"] != "fixed" {
		t.Fatalf("fga params %v", s.Methods[0].Params)
	}
	if s80, err := Parse([]byte(strings.Replace(spec, `"64"`, `"80"`, 1)), "yaml"); err != nil || s80.Options.HoldoutTrain != "" {
		t.Fatalf("holdout_train 80 (the default) is stored as %q, %v; want \"\"", s80.Options.HoldoutTrain, err)
	}
	if _, err := Parse([]byte(strings.Replace(spec, `"64"`, `"50"`, 1)), "yaml"); err == nil || !strings.Contains(err.Error(), "holdout_train") {
		t.Fatalf("holdout_train 50: %v", err)
	}
}

// TestExternalMethodSpec: an external method parses like any method (own
// parameters, sweep, selection), and loading pins its adapter's checksum
// into the study so the manifest records it.
func TestExternalMethodSpec(t *testing.T) {
	adapter := externaltest.GoAdapter(t)
	yml := fmt.Sprintf(`
protocols: [clean]
datasets: [wine]
methods:
  - name: external
    label: centroid
    external:
      command: %s {dir} {seed} {mode}
      params: {mode: ok, k: "1"}
      timeout: 30s
    sweep: {k: ["1", "2"]}
    selection: inner-cv
`, adapter)
	s, err := Parse([]byte(yml), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := external.FileSHA256(adapter)
	if got := s.Methods[0].External.AdapterSHA256; got != sum {
		t.Errorf("pinned %q, want %q", got, sum)
	}
	units, err := study.UnitsOf(s)
	if err != nil || len(units) != 5 {
		t.Fatalf("%d units, %v", len(units), err)
	}
	for _, bad := range []struct{ yml, want string }{
		{"methods: [{name: external}]", "needs an external: block"},
		{"methods: [{name: cart, external: {command: x}}]", "needs name: external"},
		{"methods: [{name: external, external: {command: " + adapter + ", params: {a: \"1\"}}, params: {b: \"2\"}}]", `parameter "b" is not declared in external.params (declared: a)`},
	} {
		if _, err := Parse([]byte("datasets: [wine]\n"+bad.yml), "yaml"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: err = %v, want %q", bad.yml, err, bad.want)
		}
	}
}

// TestPresentButEmpty: an absent key takes its default, a present one must
// say something, in YAML and JSON alike, and an option no protocol of the
// study uses is refused rather than ignored.
func TestPresentButEmpty(t *testing.T) {
	cases := []struct{ name, format, text, want string }{
		{"folds 0", "yaml", "datasets: [wine]\nfolds: 0\nmethods: [{name: cart}]\n", "folds must be at least 2, got 0"},
		{"folds null", "yaml", "datasets: [wine]\nfolds:\nmethods: [{name: cart}]\n", "folds is given but empty"},
		{"inner folds 0", "yaml", "datasets: [wine]\ninner_folds: 0\nmethods: [{name: cart}]\n", "inner folds must be at least 2"},
		{"repeats 0", "yaml", "datasets: [wine]\nrepeats: 0\nmethods: [{name: cart}]\n", "repeats must be at least 1"},
		{"datasets []", "yaml", "datasets: []\nmethods: [{name: cart}]\n", "datasets is empty"},
		{"protocols []", "yaml", "protocols: []\nmethods: [{name: cart}]\n", "protocols is given but empty"},
		{"sweep {}", "yaml", "datasets: [wine]\nmethods: [{name: cart, sweep: {}}]\n", "sweep names no parameter"},
		{"json folds 0", "json", `{"datasets":["wine"],"folds":0,"methods":[{"name":"cart"}]}`, "folds must be at least 2, got 0"},
		{"json datasets []", "json", `{"datasets":[],"methods":[{"name":"cart"}]}`, "datasets is empty"},
		{"json seed null", "json", `{"datasets":["wine"],"seed":null,"methods":[{"name":"cart"}]}`, "seed is given but empty"},
		{"folds under paper", "yaml", "protocols: [paper]\ndatasets: [wine]\nfolds: 3\nmethods: [{name: cart}]\n", "folds is used by none of the study's protocols (paper): it is an option of the clean protocol; the paper protocol fixes 5 folds"},
		{"holdout_train under clean", "yaml", "datasets: [wine]\nholdout_train: \"64\"\nmethods: [{name: cart}]\n", "holdout_train is used by none of the study's protocols (clean): it is an option of the holdout protocol (remove it"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.text), c.format)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// Absent keys still take the defaults.
	s, err := Parse([]byte("methods: [{name: cart}]\n"), "yaml")
	if err != nil || len(s.Datasets) != 10 || s.Options.Folds != 5 {
		t.Fatalf("defaults: %v %+v", err, s)
	}
}

// TestMissingPolicySpec: the spec's missing: key sets the policy (drop,
// the default, stored as ""), refuses an unknown or empty value, a key in
// other letters, and impute with the paper protocol, each in one line.
func TestMissingPolicySpec(t *testing.T) {
	parse := func(format, text string) (string, error) {
		s, err := Parse([]byte(text), format)
		return s.Options.Missing, err
	}
	ok := []struct{ name, format, text, want string }{
		{"absent", "yaml", "datasets: [wine]\nmethods: [{name: cart}]\n", ""},
		{"drop", "yaml", "datasets: [wine]\nmissing: drop\nmethods: [{name: cart}]\n", ""},
		{"impute under clean and holdout", "yaml", "protocols: [clean, holdout]\ndatasets: [wine]\nmissing: impute\nmethods: [{name: cart}]\n", "impute"},
		{"error under paper", "json", `{"protocols":["paper"],"datasets":["wine"],"missing":"error","methods":[{"name":"cart"}]}`, "error"},
	}
	for _, c := range ok {
		if got, err := parse(c.format, c.text); err != nil || got != c.want {
			t.Errorf("%s: missing %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	bad := []struct{ name, format, text, want string }{
		{"unknown", "yaml", "datasets: [wine]\nmissing: mean\nmethods: [{name: cart}]\n", `spec: missing: unknown missing-value policy "mean" (valid: drop, impute, error)`},
		{"empty", "yaml", "datasets: [wine]\nmissing: \"\"\nmethods: [{name: cart}]\n", "missing is given but empty"},
		{"capitals", "json", `{"datasets":["wine"],"Missing":"drop","methods":[{"name":"cart"}]}`, "key Missing must be written missing"},
		{"impute under paper", "yaml", "protocols: [paper, clean]\ndatasets: [wine]\nmissing: impute\nmethods: [{name: cart}]\n", "impute applies to the clean and holdout protocols only"},
	}
	for _, c := range bad {
		_, err := parse(c.format, c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line containing %q", c.name, err, c.want)
		}
	}
}

// TestDataPathsResolveFromTheSpec (issue 30, class 2): a data file in a spec
// is found beside the spec, from any working directory, and keeps the name
// the spec gives it; Parse (no file) resolves from the working directory.
func TestDataPathsResolveFromTheSpec(t *testing.T) {
	root := t.TempDir()
	ci := filepath.Join(root, "ci")
	other := filepath.Join(root, "elsewhere")
	for _, d := range []string{ci, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	text := "x,class\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n"
	if err := os.WriteFile(filepath.Join(ci, "mine.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	body := "protocols: [clean]\ndatasets: [mine.csv, wine]\nfolds: 2\ninner_folds: 2\nmethods: [{name: cart}]\n"
	specPath := filepath.Join(ci, "study.yaml")
	if err := os.WriteFile(specPath, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cwd := range []string{root, ci, other} {
		t.Chdir(cwd)
		rel, _ := filepath.Rel(cwd, specPath)
		s, err := Load(rel)
		if err != nil {
			t.Fatalf("from %s: %v", cwd, err)
		}
		if s.Datasets[0] != "mine.csv" || s.DataPath("mine.csv") != filepath.Join(ci, "mine.csv") || s.DataPath("wine") != "wine" {
			t.Errorf("from %s: datasets %q, paths %q %q", cwd, s.Datasets, s.DataPath("mine.csv"), s.DataPath("wine"))
		}
		if _, err := os.Stat(s.DataPath("mine.csv")); err != nil {
			t.Errorf("from %s: %v", cwd, err)
		}
	}
	t.Chdir(other)
	if _, err := Parse([]byte(body), "yaml"); err == nil || !strings.Contains(err.Error(), "mine.csv") {
		t.Errorf("Parse resolved mine.csv outside the working directory: %v", err)
	}
}

// TestReferenceAndBaseline: reference: names the control method of the
// report's post-hoc comparisons and must be a label of the study;
// baseline: true marks a method as a reference point; neither changes the
// study's identity (its units and keys).
func TestReferenceAndBaseline(t *testing.T) {
	base := "name: r\nprotocols: [clean]\ndatasets: [wine]\nmethods:\n  - name: fgrt\n  - name: cart\n    grid: text\n  - name: majority\n"
	plain, err := Parse([]byte(base), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, text, ref, err string
		baseline             []bool
	}{
		{"reference", base + "reference: cart@text\n", "cart@text", "", []bool{false, false, false}},
		{"baseline", strings.Replace(base, "  - name: majority\n", "  - name: majority\n    baseline: true\n", 1), "", "", []bool{false, false, true}},
		{"unknown reference", base + "reference: c45\n", "", `spec: reference: "c45" is not a method label of the study (labels: fgrt, cart@text, majority)`, nil},
		{"empty reference", base + "reference: \"\"\n", "", "spec: reference is given but empty", nil},
	}
	for _, c := range cases {
		s, err := Parse([]byte(c.text), "yaml")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Reference != c.ref {
			t.Errorf("%s: reference %q, want %q", c.name, s.Reference, c.ref)
		}
		for i, m := range s.Methods {
			if m.Baseline != c.baseline[i] {
				t.Errorf("%s: %s baseline %v", c.name, m.Name, m.Baseline)
			}
		}
		u1, _ := study.UnitsOf(plain)
		u2, _ := study.UnitsOf(s)
		if !slices.Equal(u1, u2) {
			t.Errorf("%s: the units changed", c.name)
		}
	}
}
