// Package modeltest pins what the learners describe: golden files of
// their model descriptions on real datasets (GoldenModels), each checked
// to rebuild the model's predictions, and the mangled descriptions a
// reader must refuse. Learner packages call it from their tests.
package modeltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// GoldenFolds is the number of folds GoldenModels fits: rows i with
// i % GoldenFolds == k are fold k's test rows.
const GoldenFolds = 3

// GoldenLine is one line of a golden models.jsonl: the description of the
// model fitted on all rows but fold Fold's.
type GoldenLine struct {
	Dataset     string            `json:"dataset"`
	Method      string            `json:"method"`
	Config      string            `json:"config"`
	Seed        int64             `json:"seed"`
	Fold        int               `json:"fold"`
	Description learn.Description `json:"description"`
}

// GoldenModels pins what a learner describes on a real dataset: it fits
// spec's first conformance configuration (the defaults without one) with
// seed 1 on each of GoldenFolds folds of the mirror's dataset (complete
// rows), checks every description on those rows (CheckDescription: the
// reconstruction from the decoded JSON predicts the training and test
// rows exactly, the scores agree), and compares the JSON lines with the
// golden file, which update rewrites. It skips when the dataset mirror is
// absent.
func GoldenModels(t *testing.T, spec *learn.Spec, dataset, golden string, update bool) {
	t.Helper()
	d, err := datasets.ReadKEELFile(sharedtest.Require(t, "datasets/raw/"+dataset+".dat"))
	if err != nil {
		t.Fatal(err)
	}
	d, _ = d.CompleteRows()
	var over map[string]string
	if len(spec.Conformance) > 0 {
		over = spec.Conformance[0]
	}
	cfg, err := spec.Resolve(over)
	if err != nil {
		t.Fatal(err)
	}
	const seed = 1
	var out bytes.Buffer
	for k := 0; k < GoldenFolds; k++ {
		data := goldenFold(d, dataset, k)
		desc := describeChecked(t, spec, cfg, seed, data)
		// One line per model, rules readable ("<=" rather than "\u003c=").
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(GoldenLine{Dataset: dataset, Method: spec.Name, Config: cfg.String(), Seed: seed, Fold: k, Description: desc}); err != nil {
			t.Fatal(err)
		}
	}
	compareGolden(t, golden, out.Bytes(), update)
}

// goldenFold is fold k of d: rows i with i % GoldenFolds == k to test,
// the others to train on.
func goldenFold(d *datasets.Dataset, dataset string, k int) learntest.Data {
	data := learntest.Data{Name: fmt.Sprintf("%s fold %d", dataset, k), Schema: d.Schema()}
	for i, row := range d.X {
		if i%GoldenFolds == k {
			data.XTest = append(data.XTest, row)
		} else {
			data.XTrain, data.YTrain = append(data.XTrain, row), append(data.YTrain, d.Y[i])
		}
	}
	return data
}

// describeChecked fits cfg on data's training rows and returns the
// model's description, after checking that it rebuilds the model
// (learntest.CheckDescription), survives mangling (CheckMangled) and
// storage (checkStored).
func describeChecked(t *testing.T, spec *learn.Spec, cfg learn.Values, seed int64, data learntest.Data) learn.Description {
	t.Helper()
	tr, err := spec.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tr.Fit(data.XTrain, data.YTrain, data.Schema)
	if err != nil {
		t.Fatalf("%s: %v", data.Name, err)
	}
	dsc, ok := m.(learn.Describer)
	if !ok {
		t.Fatalf("%s: the model does not implement learn.Describer", spec.Name)
	}
	for _, err := range learntest.CheckDescription(m, data) {
		t.Errorf("%s: %v", data.Name, err)
	}
	desc, err := dsc.Describe(data.Schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range CheckMangled(desc, data.XTest) {
		t.Errorf("%s: %v", data.Name, err)
	}
	if err := checkStored(m, data); err != nil {
		t.Errorf("%s: %v", data.Name, err)
	}
	return desc
}

// compareGolden compares got with the golden file, or writes it when
// update.
func compareGolden(t *testing.T, golden string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gotLines, wantLines := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gotLines) && i < len(wantLines); i++ {
			if !bytes.Equal(gotLines[i], wantLines[i]) {
				t.Fatalf("%s line %d differs from the golden file:\ngot  %s\nwant %s", golden, i+1, gotLines[i], wantLines[i])
			}
		}
		t.Fatalf("%s: %d lines, golden file has %d", golden, len(gotLines), len(wantLines))
	}
}

// CheckMangled checks that a description whose model lost one of its
// top-level fields, or was cut short, is refused by learn.Reconstruct or
// still predicts X, but never panics: models.jsonl files are read years
// later, possibly damaged.
func CheckMangled(desc learn.Description, X [][]float64) []error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(desc.Model, &fields); err != nil {
		return []error{fmt.Errorf("model is not a JSON object: %v", err)}
	}
	var errs []error
	try := func(what string, model json.RawMessage) {
		d := desc
		d.Model = model
		err := learntest.Safely(func() error {
			p, err := learn.Reconstruct(d)
			if err == nil {
				p.Predict(X)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("model %s: %v", what, err))
		}
	}
	for name := range fields {
		rest := map[string]json.RawMessage{}
		for k, v := range fields {
			if k != name {
				rest[k] = v
			}
		}
		b, _ := json.Marshal(rest)
		try("without "+name, b)
	}
	for _, cut := range []int{0, 1, len(desc.Model) / 2, len(desc.Model) - 1} {
		try(fmt.Sprintf("cut to %d bytes", cut), desc.Model[:cut])
	}
	return errs
}

// checkStored writes a model's artifacts as a results directory stores
// them (artifacts.FromModel, one models.jsonl.gz member), reads them back
// and rebuilds the model from the stored record alone: it must predict
// the training and test rows as the model does.
func checkStored(m learn.Model, d learntest.Data) error {
	pred := m.Predict(d.XTest)
	rows := make([]int, len(pred))
	for i := range rows {
		rows[i] = i
	}
	yte := make([]int, len(pred)) // the truth does not matter here
	_, rec, err := artifacts.FromModel("unit", 0, d.Schema, m, d.XTest, rows, yte, pred, nil)
	if err != nil {
		return err
	}
	member, err := artifacts.ModelsMember([]artifacts.ModelRecord{rec})
	if err != nil {
		return err
	}
	ms, _, err := artifacts.ReadModels(member, false)
	if err != nil {
		return err
	}
	if len(ms.Records) != 1 {
		return fmt.Errorf("%d records read back", len(ms.Records))
	}
	rebuilt, err := learn.Reconstruct(ms.Records[0].Description())
	if err != nil {
		return err
	}
	for _, X := range [][][]float64{d.XTrain, d.XTest} {
		if got, want := rebuilt.Predict(X), m.Predict(X); !reflect.DeepEqual(got, want) {
			return fmt.Errorf("the model rebuilt from %s predicts differently (%s)", artifacts.ModelsFile, learntest.FirstDifference(want, got))
		}
	}
	return nil
}
