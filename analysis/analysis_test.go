package analysis

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
)

// records builds selected rows: per method and dataset, 5 folds whose
// accuracies are acc[method][dataset] + a small fold offset.
func records(acc map[string]map[string]float64, balanced map[string]map[string]float64) []results.Record {
	var out []results.Record
	for m, byDS := range acc {
		for d, a := range byDS {
			for f := 0; f < 5; f++ {
				off := float64(f-2) * 0.01
				out = append(out, results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
					Accuracy: a + off, BalancedAccuracy: balanced[m][d], RulebaseSize: 3, Key: m + d})
			}
		}
	}
	return out
}

func TestShortNames(t *testing.T) {
	cases := []struct {
		in   []string
		want map[string]string
	}{
		{[]string{"pima", "wine"}, map[string]string{"pima": "pima", "wine": "wine"}},
		{[]string{"/home/u/data/iris.csv"}, map[string]string{"/home/u/data/iris.csv": "iris"}},
		{[]string{"/a/x/iris.csv", "/b/y/iris.csv", "iris"}, map[string]string{"/a/x/iris.csv": "x-iris", "/b/y/iris.csv": "y-iris", "iris": "iris"}},
		{[]string{"/a/x/iris.csv", "/b/x/iris.dat"}, map[string]string{"/a/x/iris.csv": "x-iris", "/b/x/iris.dat": "x-iris-2"}},
	}
	for _, c := range cases {
		got := ShortNames(c.in)
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%v: %s → %q, want %q", c.in, k, got[k], v)
			}
		}
	}
}

// TestNoPathReachesTheAnalysis: a dataset named by an absolute path is
// shown by its stem everywhere, analysis.json included.
func TestNoPathReachesTheAnalysis(t *testing.T) {
	path := "/home/someone/study/data/mydata.csv"
	recs := records(map[string]map[string]float64{"cart": {path: 0.8, "wine": 0.9}, "c45": {path: 0.7, "wine": 0.95}}, nil)
	a, err := Compute(recs, Options{Datasets: []DatasetInput{{Name: path, SHA256: "ab", Rows: 10, ClassCounts: []int{6, 4}}}})
	if err != nil {
		t.Fatal(err)
	}
	js, err := a.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(js), "/home") {
		t.Errorf("analysis.json holds a path:\n%s", js)
	}
	if a.Study.Datasets[0].Name != "mydata" && a.Study.Datasets[1].Name != "mydata" {
		t.Errorf("datasets %+v", a.Study.Datasets)
	}
}

// TestChanceFlags: a cell at the majority baseline's balanced accuracy is
// flagged, from the study's majority rows when present, else from class
// counts, else not at all.
func TestChanceFlags(t *testing.T) {
	acc := map[string]map[string]float64{"fgrt": {"pima": 0.651, "wine": 0.9}, "cart": {"pima": 0.72, "wine": 0.88}}
	bal := map[string]map[string]float64{"fgrt": {"pima": 0.5, "wine": 0.9}, "cart": {"pima": 0.68, "wine": 0.87}}
	counts := []DatasetInput{{Name: "pima", ClassCounts: []int{500, 268}}, {Name: "wine", ClassCounts: []int{59, 71, 48}}}
	a, err := Compute(records(acc, bal), Options{Datasets: counts})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Chance) != 1 || a.Chance[0].Method != "fgrt" || a.Chance[0].Dataset != "pima" || a.Chance[0].Source != "class counts" {
		t.Errorf("chance %+v", a.Chance)
	}
	if r := a.Study.Datasets[0].MajorityRate; math.Abs(r-500.0/768) > 1e-12 {
		t.Errorf("majority rate %v", r)
	}
	// Majority rows decide when present: their balanced accuracy is 0.5.
	acc["majority"] = map[string]float64{"pima": 0.651, "wine": 0.4}
	bal["majority"] = map[string]float64{"pima": 0.5, "wine": 1.0 / 3}
	a, err = Compute(records(acc, bal), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Chance) != 1 || a.Chance[0].Source != "majority" || a.Chance[0].Dataset != "pima" {
		t.Errorf("chance with majority rows %+v", a.Chance)
	}
	delete(acc, "majority")
	if a, _ = Compute(records(acc, bal), Options{}); len(a.Chance) != 0 {
		t.Errorf("no counts, no majority rows: %+v", a.Chance)
	}
}

// TestTestsNAOverOneDataset: a comparison over one dataset is n/a (no
// p-value over datasets) but keeps its fold-level tests, which the summary
// headlines; over two it has one, and the reference restricts the family.
func TestTestsNAOverOneDataset(t *testing.T) {
	one := records(map[string]map[string]float64{"a": {"d1": 0.8}, "b": {"d1": 0.7}}, nil)
	a, err := Compute(one, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ts := a.Tests[0]; ts.NA == "" || len(ts.Pairs) != 1 || !ts.Pairs[0].NA || len(ts.Pairs[0].Folds) != 1 || ts.Pairs[0].Folds[0].N != 5 ||
		len(ts.Summary) < 2 || !strings.Contains(ts.Summary[0], "With 1 dataset, ranks over datasets are not evidence") ||
		!strings.Contains(ts.Summary[1], "a vs b on d1: +10.00 pp over 5 folds, P(A>B) = 1.000") {
		t.Errorf("one dataset: %+v", ts)
	}
	three := records(map[string]map[string]float64{"a": {"d1": 0.8, "d2": 0.7, "d3": 0.9}, "b": {"d1": 0.7, "d2": 0.6, "d3": 0.8}, "c": {"d1": 0.75, "d2": 0.65, "d3": 0.85}}, nil)
	a, err = Compute(three, Options{Reference: "c", Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	ts := a.Tests[0]
	if ts.NA != "" || len(ts.Pairs) != 2 || ts.Pairs[0].A != "c" || ts.Reference != "c" {
		t.Fatalf("reference c: %+v", ts)
	}
	if ts.CD05 <= 0 || len(ts.Friedman.AvgRanks) != 3 || ts.Friedman.AvgRanks[0] != 1 {
		t.Errorf("ranks %v CD %v", ts.Friedman.AvgRanks, ts.CD05)
	}
	// Per-dataset fold tests: 5 folds, ρ = 1/5; c − a is −5 pp on every
	// fold, so the correlated posterior is a point mass left of the ROPE
	// and the t-test has no variance to go on (n/a).
	if f := ts.Pairs[0].Folds[0]; f.N != 5 || f.Rho != 0.2 || !f.NadeauBengio.NA || f.Correlated.PLeft != 1 {
		t.Errorf("fold test %+v", f)
	}
	if _, err := Compute(three, Options{Reference: "nope"}); err == nil {
		t.Error("unknown reference: no error")
	}
	if _, err := Compute(three, Options{Rope: 2}); err == nil {
		t.Error("rope 2: no error")
	}
}

// TestJSONNullsAndNames: NaN becomes null, names are snake_case, and the
// document parses.
func TestJSONNullsAndNames(t *testing.T) {
	for in, want := range map[string]string{"PImanDavenport": "p_iman_davenport", "CD05": "cd05", "NTest": "n_test", "AvgRanks": "avg_ranks", "DF1": "df1", "PLeft": "p_left"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%s) = %s, want %s", in, got, want)
		}
	}
	one := records(map[string]map[string]float64{"a": {"d1": 0.8}, "b": {"d1": 0.7}}, nil)
	a, err := Compute(one, Options{})
	if err != nil {
		t.Fatal(err)
	}
	js, err := a.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != float64(Schema) {
		t.Errorf("schema %v", doc["schema"])
	}
	ds := doc["study"].(map[string]any)["datasets"].([]any)[0].(map[string]any)
	if v, ok := ds["majority_rate"]; !ok || v != nil {
		t.Errorf("majority_rate of unknown counts = %v, want null", v)
	}
}

// TestMajorityRateOfTheRowsUsed: the majority rate is that of the rows
// the protocols used when the manifest recorded them (hepatitis: 67 of
// the 80 complete rows, 83.75 %, what the majority method scores), else of
// the file's rows (79.35 %); analysis.json carries both balances.
func TestMajorityRateOfTheRowsUsed(t *testing.T) {
	recs := records(map[string]map[string]float64{"cart": {"hepatitis": 0.8}, "c45": {"hepatitis": 0.9}}, nil)
	cases := []struct {
		name string
		in   DatasetInput
		want float64
		json map[string]any
	}{
		{"rows used recorded", DatasetInput{Name: "hepatitis", Rows: 155, ClassCounts: []int{32, 123}, RowsUsed: 80, ClassCountsUsed: []int{13, 67},
			Features: 19, MissingRows: 75}, 67.0 / 80, map[string]any{"name": "hepatitis", "rows": 155.0, "class_counts": []any{32.0, 123.0},
			"rows_used": 80.0, "class_counts_used": []any{13.0, 67.0}, "features": 19.0, "missing_rows": 75.0, "majority_rate": 0.8375}},
		{"an older manifest", DatasetInput{Name: "hepatitis", Rows: 155, ClassCounts: []int{32, 123}}, 123.0 / 155,
			map[string]any{"name": "hepatitis", "rows": 155.0, "class_counts": []any{32.0, 123.0}, "majority_rate": 123.0 / 155}},
	}
	for _, c := range cases {
		a, err := Compute(recs, Options{Datasets: []DatasetInput{c.in}})
		if err != nil {
			t.Fatal(err)
		}
		if r := a.Study.Datasets[0].MajorityRate; math.Abs(r-c.want) > 1e-12 {
			t.Errorf("%s: majority rate %v, want %v", c.name, r, c.want)
		}
		js, err := a.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Study struct {
				Datasets []map[string]any `json:"datasets"`
			} `json:"study"`
		}
		if err := json.Unmarshal(js, &doc); err != nil {
			t.Fatal(err)
		}
		if got := doc.Study.Datasets[0]; !reflect.DeepEqual(got, c.json) {
			t.Errorf("%s: analysis.json's dataset\n%v\nwant\n%v", c.name, got, c.json)
		}
	}
}
