package external

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external/externaltest"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

func goSpec(t *testing.T, mode string) Spec {
	return Spec{
		Command: externaltest.GoAdapter(t) + " {dir} {seed} {mode}",
		Params:  map[string]string{"mode": mode},
		Timeout: "20s",
	}
}

func trainerOf(t *testing.T, s Spec, overrides map[string]string) func(seed int64) (learn.Trainer, error) {
	t.Helper()
	m, err := s.Method()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := m.Resolve(overrides)
	if err != nil {
		t.Fatal(err)
	}
	return func(seed int64) (learn.Trainer, error) { return m.New(cfg, seed) }
}

// TestConformance holds the external kind, through the Go adapter, to the
// same contract as every registered learner.
func TestConformance(t *testing.T) {
	learntest.Run(t, learntest.Subject{Name: "external", New: trainerOf(t, goSpec(t, "ok"), nil)})
}

func TestFailuresExplainThemselves(t *testing.T) {
	d := learntest.Problems()[0]
	cases := []struct {
		mode, timeout, want string
	}{
		{"exit", "", "exited with status 3: Traceback (most recent call last): | ValueError: the model exploded"},
		{"sleep", "300ms", "timed out after 300ms"},
		{"short", "", "predictions.txt has 22 predictions for 23 test rows"},
		{"unknown", "", `predictions.txt line 1: "purple" is not a class of the schema (red, green, blue)`},
		{"badjson", "", "malformed result.json"},
		{"hugepred", "", "predictions.txt is larger than 4264 bytes, the most 23 test rows of class names can take"},
		{"fifo", "", "predictions.txt is a named pipe, not a regular file"}, // and no hang
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			s := goSpec(t, tc.mode)
			if tc.timeout != "" {
				s.Timeout = tc.timeout
			}
			tr, _ := trainerOf(t, s, nil)(1)
			m, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = learn.PredictChecked(m, d.XTest, d.Schema.NumClasses())
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tc.want)
			}
		})
	}
}

// TestSameBytesForSameUnit: the files of a unit are a function of the unit.
func TestSameBytesForSameUnit(t *testing.T) {
	for _, d := range learntest.Problems() {
		render := func() map[string][]byte {
			parts, err := partitions(d.XTrain, d.YTrain, d.Schema)
			if err != nil {
				t.Fatal(err)
			}
			in := inputs{schema: d.Schema, xtr: d.XTrain, ytr: d.YTrain, xte: d.XTest, partitions: parts, seed: 5, params: map[string]string{"a": "1", "b": "x", "c": "true", "d": "1e-3"}}
			files, err := in.files()
			if err != nil {
				t.Fatal(err)
			}
			return files
		}
		a, b := render(), render()
		if len(a) != 5 {
			t.Fatalf("%d files", len(a))
		}
		for name := range a {
			if !bytes.Equal(a[name], b[name]) {
				t.Errorf("%s: %s differs between two renderings", d.Name, name)
			}
		}
		if d.Name == "nominal" {
			if !bytes.Contains(a[SchemaFile], []byte(`"categories": [`)) || !bytes.Contains(a[PartitionsFile], []byte(`"value": 0`)) {
				t.Errorf("nominal columns not described:\n%s\n%s", a[SchemaFile], a[PartitionsFile])
			}
			if !bytes.Contains(a[ParamsFile], []byte(`"a": 1,`)) || !bytes.Contains(a[ParamsFile], []byte(`"b": "x"`)) ||
				!bytes.Contains(a[ParamsFile], []byte(`"c": true`)) || !bytes.Contains(a[ParamsFile], []byte(`"d": 1e-3`)) {
				t.Errorf("params.json:\n%s", a[ParamsFile])
			}
			if first := strings.SplitN(string(a[TrainFile]), "\n", 2)[0]; first != "colour,size,shape,class" {
				t.Errorf("train.csv header %q", first)
			}
			if first := strings.SplitN(string(a[TestFile]), "\n", 2)[0]; first != "colour,size,shape" {
				t.Errorf("test.csv header %q", first)
			}
		}
	}
}

func TestSpecErrors(t *testing.T) {
	adapter := externaltest.GoAdapter(t)
	script, data := writeFile(t, "adapter.sh", "exit 0\n"), writeFile(t, "data.csv", "a\n")
	cases := []struct {
		spec Spec
		want string
	}{
		{Spec{}, "command is required"},
		{Spec{Command: adapter + " {nope}"}, "unknown placeholder {nope}"},
		{Spec{Command: adapter + " {dir"}, "unclosed '{'"},
		{Spec{Command: adapter + " 'x"}, "unclosed quote"},
		{Spec{Command: adapter + " a}"}, "unmatched '}'"},
		{Spec{Command: adapter, Params: map[string]string{"seed": "1"}}, `parameter name "seed" is reserved`},
		{Spec{Command: adapter, Params: map[string]string{"a=b": "1"}}, "may not be empty or contain"},
		{Spec{Command: adapter, Timeout: "soon"}, `timeout "soon"`},
		{Spec{Command: "no-such-program-fgrtbench {dir}"}, "executable file not found"},
		{Spec{Command: "sh -c true"}, "give adapter:"},
		{Spec{Command: "sh -c true", Adapter: "/nonexistent/adapter.py"}, "adapter:"},
		{Spec{Command: adapter + " {dir}; rm x"}, "may not contain ';'"},
		{Spec{Command: adapter, AdapterSHA256: strings.Repeat("0", 64)}, "changed"},
		// Two files after the program: which one is the method is ambiguous.
		{Spec{Command: "sh " + script + " {dir} " + data}, "several words name files (" + script + ", " + data + "); give adapter:"},
	}
	for _, tc := range cases {
		_, err := tc.spec.Method()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.spec, err, tc.want)
		}
	}
}

func TestTemplate(t *testing.T) {
	tpl, err := parseTemplate(`prog --a="{x} y" '{{literal}}' {dir}/f{seed}`, map[string]string{"x": "1"})
	if err != nil {
		t.Fatal(err)
	}
	got := tpl.expand(map[string]string{"x": "v a", "dir": "/d", "seed": "9"})
	want := []string{"prog", "--a=v a y", "{literal}", "/d/f9"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("expand = %q, want %q", got, want)
	}
}

// TestConfigCarriesCommandAndAdapter: the command and the adapter's
// checksum are resolved parameters, so a changed adapter is a different
// configuration (and unit key); a parameter the spec did not declare is
// rejected like any unknown parameter.
func TestConfigCarriesCommandAndAdapter(t *testing.T) {
	s := goSpec(t, "ok")
	m, err := s.Method()
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Defaults()
	sum, _ := FileSHA256(strings.Fields(s.Command)[0])
	if cfg[ParamCommand] != s.Command || cfg[ParamAdapter] != sum || cfg["mode"] != "ok" {
		t.Errorf("config %v", cfg)
	}
	if _, err := m.Resolve(map[string]string{"mdoe": "x"}); err == nil || !strings.Contains(err.Error(), `no parameter "mdoe"`) {
		t.Errorf("typo accepted: %v", err)
	}
	if _, err := m.Resolve(map[string]string{ParamAdapter: "abc"}); err == nil {
		t.Error("adapter checksum overridable")
	}
	if _, err := m.Resolve(map[string]string{"mode": "a;b"}); err == nil {
		t.Error("';' accepted in a value")
	}

	// Change the adapter: a new spec resolves to another checksum, and a
	// trainer resolved before the change refuses to run.
	tr, _ := trainerOf(t, s, nil)(1)
	d := learntest.Problems()[0]
	model, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
	if err != nil {
		t.Fatal(err)
	}
	path := strings.Fields(s.Command)[0]
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0})
	f.Close()
	if _, _, err := learn.PredictChecked(model, d.XTest, 3); err == nil || !strings.Contains(err.Error(), "changed during the study") {
		t.Errorf("changed adapter ran: %v", err)
	}
	m2, err := s.Method()
	if err != nil {
		t.Fatal(err)
	}
	if m2.Defaults()[ParamAdapter] == sum {
		t.Error("changed adapter, same checksum")
	}
}

// TestResultRecordErrors: a malformed result.json is one line in the file's
// own terms (field paths as written, JSON kinds), never a Go type name.
func TestResultRecordErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{`{"complexity": {"rules": "seven"}}`, "malformed result.json: complexity.rules is a JSON string, want a whole number"},
		{`{"complexity": {"leaves": 7.5}}`, "malformed result.json: complexity.leaves is a JSON number 7.5, want a whole number"},
		{`{"complexity": {"rules": 7.0}}`, "malformed result.json: complexity.rules is a JSON number 7.0, want a whole number"},
		{`{"fit_seconds": "fast"}`, "malformed result.json: fit_seconds is a JSON string, want a number"},
		{`{"complexity": [1, 2]}`, "malformed result.json: complexity is a JSON array, want an object"},
		{`{"complexity": {"rules": 3, "antecedents": -2}}`, "malformed result.json: complexity.antecedents is -2; counts cannot be negative"},
		{`{"fit_seconds": -1}`, "malformed result.json: fit_seconds -1 is negative"},
		{`{"colour": 1}`, `malformed result.json: unknown field "colour"`},
		{`{"fit_seconds": 1} {"complexity": {"rules": 3}}`, "malformed result.json: more than one JSON value"},
		{`{"fit_seconds": 1} trailing`, "malformed result.json: more than one JSON value"},
		{`{not json`, "malformed result.json: invalid character"},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), ResultFile)
		if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readResult(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.ContainsAny(err.Error(), "\n{") {
			t.Errorf("%s: got %v, want one line containing %q", c.body, err, c.want)
		}
	}
	for _, ok := range []string{`{}`, "{\"fit_seconds\": 0.5, \"complexity\": {\"rules\": 2, \"antecedents\": 3, \"leaves\": 2, \"internal_nodes\": 1}, \"rules\": \"IF a THEN b\\nIF b THEN c\"}\n"} {
		path := filepath.Join(t.TempDir(), ResultFile)
		if err := os.WriteFile(path, []byte(ok), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readResult(path); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAdapterDefault: without adapter:, the file that identifies the method
// is the one word after the program naming a file (the script after an
// interpreter given by its path), else the program itself; adapter: settles
// an ambiguous command.
func TestAdapterDefault(t *testing.T) {
	goAdapter := externaltest.GoAdapter(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("skipping: no sh")
	}
	script, data := writeFile(t, "adapter.sh", "exit 0\n"), writeFile(t, "data.csv", "a\n")
	cases := []struct {
		spec Spec
		want string
	}{
		{Spec{Command: sh + " " + script + " {dir}"}, script},
		{Spec{Command: goAdapter + " {dir} {seed}"}, goAdapter},
		{Spec{Command: sh + " " + script + " {dir} " + data, Adapter: script}, script},
	}
	for _, tc := range cases {
		m, err := tc.spec.Method()
		if err != nil {
			t.Fatalf("%s: %v", tc.spec.Command, err)
		}
		want, _ := FileSHA256(tc.want)
		if got := m.Defaults()[ParamAdapter]; got != want {
			t.Errorf("%s: adapter_sha256 %s, want the SHA-256 of %s", tc.spec.Command, got, tc.want)
		}
	}
}
