package fuzzycart_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/fuzzycart"
	"github.com/fgrtbench/fgrtbench/learn"
)

// TestDescribeRoundTrip rebuilds every reference run of
// testdata/synthetic.json from its description and requires the same
// predictions and predict_proba, stale lists and pruned trees included.
func TestDescribeRoundTrip(t *testing.T) {
	g := readGolden(t, "testdata/synthetic.json")
	c := g.Cases[0]
	s := schemaFor(c.Nominal, len(c.XTrain[0]), 2)
	var stale, pruned int
	for _, r := range c.Runs {
		m := fitRun(t, r, c.XTrain, c.YTrain, s)
		d, err := m.Describe(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := fuzzycart.ModelFromJSON(d.Model)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.Predict(c.XTest), r.TestPred) {
			t.Errorf("%v: rebuilt model predicts differently", r.Config)
		}
		for i, row := range back.PredictProba(c.XTest) {
			if !slices.Equal(row, m.PredictProba(c.XTest)[i]) {
				t.Errorf("%v: rebuilt predict_proba differs at row %d", r.Config, i)
				break
			}
		}
		if m.Stale {
			stale++
		}
		if r.Config["apply_ccp_alpha"] == "true" {
			pruned++
		}
	}
	if stale == 0 || pruned == 0 {
		t.Fatalf("round trip saw %d stale and %d pruned models", stale, pruned)
	}
}

// TestModelFromJSONRejects refuses malformed descriptions with an error.
func TestModelFromJSONRejects(t *testing.T) {
	g := readGolden(t, "testdata/synthetic.json")
	c := g.Cases[1]
	s := schemaFor(c.Nominal, len(c.XTrain[0]), 3)
	m := fitRun(t, c.Runs[0], c.XTrain, c.YTrain, s)
	d, err := m.Describe(s)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct{ edit func(map[string]any) }{
		"no classes":         {func(v map[string]any) { v["classes"] = []any{} }},
		"class out of range": {func(v map[string]any) { v["classes"] = []any{0, 7} }},
		"no root":            {func(v map[string]any) { v["nodes"] = []any{} }},
		"bad feature":        {func(v map[string]any) { v["nodes"].([]any)[1].(map[string]any)["feature"] = 99 }},
		"bad child":          {func(v map[string]any) { v["nodes"].([]any)[0].(map[string]any)["children"] = []any{0} }},
		"empty list":         {func(v map[string]any) { v["prediction_list"] = []any{} }},
		"list node":          {func(v map[string]any) { v["prediction_list"] = []any{[]any{999, 0}} }},
		"list class":         {func(v map[string]any) { v["prediction_list"] = []any{[]any{0, 5}} }},
		"neither crisp nor 4": {func(v map[string]any) {
			v["partitions"].([]any)[0].(map[string]any)["terms"].([]any)[0].(map[string]any)["trapezoid"] = nil
		}},
	} {
		var v map[string]any
		if err := json.Unmarshal(d.Model, &v); err != nil {
			t.Fatal(err)
		}
		tc.edit(v)
		raw, _ := json.Marshal(v)
		if _, err := fuzzycart.ModelFromJSON(raw); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := learn.Reconstruct(learn.Description{ModelHead: learn.ModelHead{Kind: fuzzycart.Kind},
		Model: json.RawMessage(`{`)}); err == nil || !strings.Contains(err.Error(), fuzzycart.Kind) {
		t.Errorf("truncated JSON: %v", err)
	}
}
