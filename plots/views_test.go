package plots

import (
	"encoding/csv"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

// viewRecords is a small study: 12 methods (more than Demšar's table
// covers, two of them grid variants) on four datasets, one of them a
// user's file named by an absolute path.
func viewRecords(path string) []results.Record {
	var out []results.Record
	methods := []string{"fgrt", "fgrt-opt", "cart", "cart@text", "c45", "c45@text", "ripper", "fga", "m1", "m2", "m3", "m4"}
	datasets := []string{"pima", "wine", "zoo", path}
	for i, m := range methods {
		for j, d := range datasets {
			for f := 0; f < 5; f++ {
				acc := 0.6 + 0.02*float64((i*7+j*3)%11) + 0.005*float64(f)
				out = append(out, results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
					Accuracy: acc, BalancedAccuracy: acc - 0.05, Rules: 2 + i, Antecedents: 3 + i, RulebaseSize: 3 + i + j, Key: m + d})
			}
		}
	}
	return out
}

// TestViewsAgree renders every view of one analysis — REPORT.md, the ranks
// CSV, analysis.json and the critical-difference figure's input — and
// checks that they show the same mean ranks and critical difference, for
// exactly the same methods.
func TestViewsAgree(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "private", "mine.csv")
	recs := viewRecords(path)
	a, err := analysis.Compute(recs, analysis.Options{Name: "views", Samples: 2000, KeepDuplicates: true}) // its fixture has labels alike on every fold
	if err != nil {
		t.Fatal(err)
	}
	figs, err := RenderAll(filepath.Join(dir, "report", "figures"), Inputs{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	var rfigs []reports.Figure
	for _, f := range figs {
		rfigs = append(rfigs, reports.Figure{Path: filepath.Join("report", f.Path), Caption: f.Caption})
	}
	rep, err := reports.Render(reports.Options{Dir: dir, Analysis: a, Figures: rfigs})
	if err != nil {
		t.Fatal(err)
	}
	tests, _ := a.TestsOf("clean")
	if len(tests.Methods) != 12 || tests.NA != "" {
		t.Fatalf("tests rank %d methods (%s)", len(tests.Methods), tests.NA)
	}
	want := map[string]float64{}
	for i, m := range tests.Methods {
		want[m] = tests.Friedman.AvgRanks[i]
	}

	// The CD figure's input.
	cd, err := CDDataOf(a, "clean")
	if err != nil {
		t.Fatal(err)
	}
	if len(cd.Methods) != len(want) || cd.CD != tests.CD05 {
		t.Errorf("CD figure: %d methods, CD %v; tables: %d, %v", len(cd.Methods), cd.CD, len(want), tests.CD05)
	}
	for i, m := range cd.Methods {
		if cd.AvgRanks[i] != want[m] {
			t.Errorf("CD figure rank of %s %v, analysis %v", m, cd.AvgRanks[i], want[m])
		}
	}
	var captioned bool
	for _, f := range figs {
		if strings.HasPrefix(filepath.Base(f.Path), "cd_clean") {
			captioned = strings.Contains(f.Caption, "exactly the 12 methods of the ranks table") && strings.Contains(f.Caption, "CD = "+strconv.FormatFloat(tests.CD05, 'f', 3, 64))
		}
	}
	if !captioned {
		t.Error("the CD figure's caption does not state the ranked methods and the CD")
	}

	// The ranks CSV.
	f, err := os.Open(filepath.Join(rep.Dir, "ranks-clean.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows)-1 != len(want) {
		t.Errorf("ranks CSV has %d methods, want %d", len(rows)-1, len(want))
	}
	// Columns by header: the ranks table declares them by name.
	method, rank := slices.Index(rows[0], "method"), slices.Index(rows[0], "average_rank")
	if method < 0 || rank < 0 {
		t.Fatalf("ranks CSV header %q lacks method or average_rank", rows[0])
	}
	for _, r := range rows[1:] {
		v, _ := strconv.ParseFloat(r[rank], 64)
		if math.Abs(v-want[r[method]]) > 5e-7 {
			t.Errorf("ranks CSV %s %v, analysis %v", r[method], v, want[r[method]])
		}
	}

	// analysis.json.
	js, err := os.ReadFile(filepath.Join(rep.Dir, "analysis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests []struct {
			Protocol string
			Methods  []string
			CD05     float64 `json:"cd05"`
			Friedman struct {
				AvgRanks []float64 `json:"avg_ranks"`
			}
		}
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Tests) != 1 || doc.Tests[0].CD05 != tests.CD05 {
		t.Fatalf("analysis.json tests %+v", doc.Tests)
	}
	for i, m := range doc.Tests[0].Methods {
		if doc.Tests[0].Friedman.AvgRanks[i] != want[m] {
			t.Errorf("analysis.json rank of %s %v, analysis %v", m, doc.Tests[0].Friedman.AvgRanks[i], want[m])
		}
	}

	// REPORT.md: the headline's mean-rank column and the ranks table.
	md := string(rep.Markdown)
	for m, r := range want {
		row := "| " + strings.ReplaceAll(m, "@", "@") + " | " + strconv.FormatFloat(r, 'f', 2, 64) + " |"
		if !strings.Contains(md, row) {
			t.Errorf("headline lacks %q", row)
		}
	}
	if !strings.Contains(md, "Nemenyi CD (α = 0.05) | "+strconv.FormatFloat(tests.CD05, 'f', 4, 64)) {
		t.Error("REPORT.md's Friedman table shows another CD")
	}

	// No output names the absolute path (nor the temporary directory).
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".md", ".tex", ".csv", ".json", ".svg":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), dir) || strings.Contains(string(b), "private") {
			t.Errorf("%s names a path", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "| mine |") {
		t.Error("the datasets table lacks the user's dataset by its stem")
	}
}
