package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// headlineRow is one method of a headline as a view shows it.
type headlineRow struct {
	display, rank string
}

// TestHeadlineIsTheReports renders small studies and checks that the
// terminal's headline, REPORT.md's headline and analysis.json show one
// ranking: the same methods (grid variants such as cart@text included, a
// sweep's points not), under the same names, with the same ranks, in the
// same order; and that the counts of methods and datasets agree with the
// study line and the accuracy table. With one dataset there are ranks too
// (too few datasets for a test, enough for a ranking), on both.
func TestHeadlineIsTheReports(t *testing.T) {
	cases := []struct {
		name     string
		datasets int
	}{
		{"three datasets", 3},
		{"one dataset", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			var names []string
			for k := 0; k < c.datasets; k++ {
				path := filepath.Join(tmp, fmt.Sprintf("d%d.csv", k))
				writeData(t, path, float64(4*k))
				names = append(names, path)
			}
			spec, out := filepath.Join(tmp, "s.yaml"), filepath.Join(tmp, "out")
			text := fmt.Sprintf("protocols: [clean]\ndatasets: [%s]\nfolds: 3\ninner_folds: 2\nmethods:\n"+
				"  - name: cart\n  - name: cart\n    grid: text\n  - name: c45\n  - name: majority\n"+
				"  - name: cart\n    label: cart-scan\n    sweep: {ccp_alpha: [\"0\", \"0.01\"]}\n    selection: sweep\n", strings.Join(names, ", "))
			if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI("run", "--spec", spec, "--out", out, "-j", "1")
			if code != 0 {
				t.Fatalf("run: %s", stderr)
			}
			terminal := terminalHeadline(t, stdout)
			md, err := os.ReadFile(filepath.Join(out, "report", "REPORT.md"))
			if err != nil {
				t.Fatal(err)
			}
			report, studyMethods, studyDatasets := reportHeadline(t, string(md))
			js, err := os.ReadFile(filepath.Join(out, "report", "analysis.json"))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Headline string `json:"headline_protocol"`
				Study    struct {
					Datasets []struct{ Name string } `json:"datasets"`
				} `json:"study"`
				Rankings []struct {
					Protocol string   `json:"protocol"`
					Datasets []string `json:"datasets"`
					Methods  []struct {
						Label, Display string
						MeanRank       *float64 `json:"mean_rank"`
					} `json:"methods"`
				} `json:"rankings"`
			}
			if err := json.Unmarshal(js, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Headline != "clean" || len(doc.Rankings) != 1 || doc.Rankings[0].Protocol != "clean" {
				t.Fatalf("analysis.json: headline %q, rankings %+v", doc.Headline, doc.Rankings)
			}
			var fromJSON []headlineRow
			for _, m := range doc.Rankings[0].Methods {
				if m.MeanRank == nil {
					t.Fatalf("analysis.json: %s has no mean rank", m.Label)
				}
				fromJSON = append(fromJSON, headlineRow{m.Display, strconv.FormatFloat(*m.MeanRank, 'f', 2, 64)})
			}
			want := []string{"C4.5 (J48)", "CART", "CART@text", "Majority"}
			for name, rows := range map[string][]headlineRow{"terminal": terminal, "REPORT.md": report, "analysis.json": fromJSON} {
				if fmt.Sprint(rows) != fmt.Sprint(fromJSON) {
					t.Errorf("%s headline %v, analysis.json's %v", name, rows, fromJSON)
				}
				var shown []string
				for _, r := range rows {
					shown = append(shown, r.display)
					if r.rank == "—" {
						t.Errorf("%s: %s has no rank", name, r.display)
					}
				}
				slices.Sort(shown)
				if fmt.Sprint(shown) != fmt.Sprint(want) {
					t.Errorf("%s ranks %v, want the selected labels %v (no sweep points)", name, shown, want)
				}
			}
			if studyMethods != len(want) || studyDatasets != c.datasets || len(doc.Study.Datasets) != c.datasets || len(doc.Rankings[0].Datasets) != c.datasets {
				t.Errorf("counts: study line %d methods, %d datasets; analysis.json %d datasets, ranked over %d; want %d and %d",
					studyMethods, studyDatasets, len(doc.Study.Datasets), len(doc.Rankings[0].Datasets), len(want), c.datasets)
			}
			if !strings.Contains(stdout, fmt.Sprintf("clean protocol, %s:", countNoun(c.datasets, "dataset"))) {
				t.Errorf("terminal does not count %d datasets:\n%s", c.datasets, stdout)
			}
		})
	}
}

func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// terminalHeadline reads the first protocol's rows of the headline a run
// printed: "    DISPLAY  LABEL  RANK  BEST".
func terminalHeadline(t *testing.T, stdout string) []headlineRow {
	t.Helper()
	_, after, ok := strings.Cut(stdout, "headline: ")
	if !ok {
		t.Fatalf("no headline in:\n%s", stdout)
	}
	lines := strings.Split(after, "\n")
	var rows []headlineRow
	cols := regexp.MustCompile(`^    (.+?)  +(\S+)  +(\S+)  +(\S+)$`)
	for _, l := range lines[3:] {
		m := cols.FindStringSubmatch(l)
		if m == nil {
			break
		}
		rows = append(rows, headlineRow{m[1], m[3]})
	}
	if len(rows) == 0 {
		t.Fatalf("no rows in the terminal's headline:\n%s", after)
	}
	return rows
}

// reportHeadline reads REPORT.md's headline table and its study line's
// counts of methods and datasets.
func reportHeadline(t *testing.T, md string) (rows []headlineRow, methods, datasets int) {
	t.Helper()
	m := regexp.MustCompile(`Study \*\*.*?\*\*: (\d+) datasets?, (\d+) methods?,`).FindStringSubmatch(md)
	if m == nil {
		t.Fatalf("no study line in REPORT.md:\n%s", md)
	}
	datasets, _ = strconv.Atoi(m[1])
	methods, _ = strconv.Atoi(m[2])
	_, table, ok := strings.Cut(md, "| Method | Mean rank |")
	if !ok {
		t.Fatal("no headline table in REPORT.md")
	}
	for _, l := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(l, "| ") {
			break
		}
		cells := strings.Split(l, " | ")
		rows = append(rows, headlineRow{strings.ReplaceAll(strings.TrimPrefix(cells[0], "| "), `\`, ""), cells[1]})
	}
	return rows, methods, datasets
}
