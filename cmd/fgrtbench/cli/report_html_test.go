package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	stdhtml "html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReportViewsAgree renders the report of a small study and checks that
// the views show one set of numbers: each cell's accuracy in index.html
// (the value it sorts by and the text shown) equals analysis.json's and the
// accuracy CSV table's; and that the page is one of the report's files
// (its marker, where the report keeps one, lists it).
func TestReportViewsAgree(t *testing.T) {
	tmp := t.TempDir()
	data, spec, out := filepath.Join(tmp, "mine.csv"), filepath.Join(tmp, "s.yaml"), filepath.Join(tmp, "out")
	writeData(t, data, 0)
	if err := os.WriteFile(spec, []byte(fmt.Sprintf("protocols: [clean]\ndatasets: [%s]\nfolds: 3\ninner_folds: 2\nmethods:\n  - name: cart\n  - name: c45\n", data)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runCLI("run", "--spec", spec, "--out", out); code != 0 {
		t.Fatalf("run: %s", e)
	}
	if code, _, e := runCLI("report", "--results", out); code != 0 {
		t.Fatalf("report: %s", e)
	}
	dir := filepath.Join(out, "report")
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile(filepath.Join(dir, "analysis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Protocol, Dataset, Method string
			Accuracy                  float64
		} `json:"cells"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cells) != 2 {
		t.Fatalf("analysis.json has %d cells, want 2", len(doc.Cells))
	}
	f, err := os.Open(filepath.Join(dir, "accuracy-clean.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("accuracy-clean.csv: %v (%d rows)", err, len(rows))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	csvAcc := map[[2]string]string{}
	for _, r := range rows[1:] {
		csvAcc[[2]string{r[col["dataset"]], r[col["method"]]}] = r[col["accuracy_mean"]]
	}
	s := string(page)
	table := s[strings.Index(s, `id="cells-0"`):]
	table = table[:strings.Index(table, "</table>")]
	row := regexp.MustCompile(`<tr data-dataset="([^"]*)" data-method="([^"]*)"[^>]*><td>[^<]*</td><td>[^<]*</td><td class="n" data-v="([^"]*)">([0-9.]+)`)
	seen := 0
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		ds, method := stdhtml.UnescapeString(m[1]), stdhtml.UnescapeString(m[2])
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("%s/%s: data-v %q", ds, method, m[3])
		}
		for _, c := range doc.Cells {
			if c.Dataset == ds && c.Method == method {
				seen++
				if v != c.Accuracy {
					t.Errorf("%s/%s: index.html %v, analysis.json %v", ds, method, v, c.Accuracy)
				}
			}
		}
		if got, want := strconv.FormatFloat(v*100, 'f', 6, 64), csvAcc[[2]string{ds, method}]; got != want {
			t.Errorf("%s/%s: index.html %s %%, accuracy-clean.csv %q", ds, method, got, want)
		}
		if got, want := m[4], strconv.FormatFloat(v*100, 'f', 2, 64); got != want {
			t.Errorf("%s/%s: shown %s, value %s", ds, method, got, want)
		}
	}
	if seen != len(doc.Cells) {
		t.Errorf("index.html shows %d of analysis.json's %d cells", seen, len(doc.Cells))
	}
	// The report's marker (where this version keeps one) must list the
	// page, so that the next report may replace it.
	if marker, err := os.ReadFile(filepath.Join(dir, ".fgrtbench-report")); err == nil && !strings.Contains("\n"+string(marker), "\nindex.html\n") {
		t.Errorf("the report's marker does not list index.html:\n%s", marker)
	}
}
