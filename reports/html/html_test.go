package html

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	stdhtml "html"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

var update = flag.Bool("update", false, "rewrite the golden page testdata/fixture.html")

// hostileDataset and hostileMethod are names from data that would break
// the page (or run script) if they reached it unescaped.
const (
	hostileDataset = `x"><img src=x onerror=alert(1)>` // no slash: a slash makes it a path
	hostileMethod  = `m'<b>&amp;`
)

// fixtureRecords is a small study: one protocol, three datasets (one with
// a hostile name), three methods (one with a hostile label), three folds,
// and a two-point sweep of cart, so that the page has every section.
func fixtureRecords() []results.Record {
	type spec struct {
		dataset, method string
		accs            []float64
		size            int
	}
	specs := []spec{
		{"iris", "cart", []float64{0.94, 0.96, 0.95}, 12},
		{"iris", "fgrt", []float64{0.9, 0.92, 0.91}, 5},
		{"iris", hostileMethod, []float64{0.8, 0.82, 0.81}, 3},
		{"wine", "cart", []float64{0.88, 0.9, 0.86}, 30},
		{"wine", "fgrt", []float64{0.93, 0.95, 0.94}, 9},
		{"wine", hostileMethod, []float64{0.7, 0.72, 0.71}, 2},
		{hostileDataset, "cart", []float64{0.6, 0.62, 0.61}, 40},
		{hostileDataset, "fgrt", []float64{0.66, 0.64, 0.65}, 8},
		{hostileDataset, hostileMethod, []float64{0.5, 0.5, 0.5}, 1},
		// The majority-class baseline: hostileMethod on hostileDataset does
		// no better, so that cell is flagged at chance.
		{"iris", analysis.MajorityMethod, []float64{0.33, 0.33, 0.34}, 0},
		{"wine", analysis.MajorityMethod, []float64{0.4, 0.4, 0.4}, 0},
		{hostileDataset, analysis.MajorityMethod, []float64{0.5, 0.5, 0.5}, 0},
	}
	var recs []results.Record
	for _, s := range specs {
		for fold, acc := range s.accs {
			r := results.Record{Protocol: "clean", Dataset: s.dataset, Method: s.method, Selection: "fixed", Selected: true,
				Fold: fold, Seed: 42, NTrain: 80, NTest: 20, Correct: int(acc*20 + 0.5), Accuracy: acc, BalancedAccuracy: acc - 0.02,
				Rules: s.size / 2, Antecedents: s.size, RulebaseSize: s.size, Leaves: s.size / 2, FitSeconds: 0.002,
				Key: fmt.Sprintf("clean/%s/%s/0/%d", s.dataset, s.method, fold)}
			recs = append(recs, r)
			if s.method == "cart" {
				for i, depth := range []int{2, 8} {
					sw := r
					sw.Selected, sw.Selection, sw.Config, sw.ConfigIndex = false, "sweep", "max_depth="+strconv.Itoa(depth), i
					sw.Accuracy -= 0.05 * float64(1-i)
					sw.RulebaseSize = depth * 2
					sw.Key = fmt.Sprintf("sweep/%s/%d/%d", s.dataset, i, fold)
					recs = append(recs, sw)
				}
			}
		}
	}
	return recs
}

func fixtureAnalysis(t testing.TB) *analysis.Analysis {
	t.Helper()
	pres := results.PresentationOf([]results.Method{
		{Label: "fgrt", Method: "fgrt", DisplayName: "FGRT", Order: 0},
		{Label: "cart", Method: "cart", DisplayName: "CART", Order: 1},
		{Label: hostileMethod, Method: hostileMethod, DisplayName: hostileMethod + " <i>display</i>", Order: 2},
		{Label: analysis.MajorityMethod, Method: analysis.MajorityMethod, DisplayName: "Majority", Order: 3},
	})
	a, err := analysis.Compute(fixtureRecords(), analysis.Options{Name: "fixture <study>", Methods: pres, Samples: 2000,
		Datasets: []analysis.DatasetInput{{Name: "iris", SHA256: "ab12", Rows: 150, Classes: []string{"a", "b", "c"}, ClassCounts: []int{50, 50, 50}}}})
	if err != nil {
		t.Fatal(err)
	}
	a.Stability = fixtureStability()
	return a
}

// fixtureStability is the rule stability the artifacts of the fixture
// study would give: CART's rules in the data's units with their coverage
// and confidence, FGRT's linguistic rules with their partitions, and the
// hostile method's many rules, in the learner's units, with hostile text.
func fixtureStability() []analysis.Stability {
	jac := 0.5
	var many []string
	for i := range 60 {
		many = append(many, fmt.Sprintf("IF x <= %d AND y > </code><script>alert(%d)</script> THEN class a", i, i))
	}
	return []analysis.Stability{
		{Protocol: "clean", Dataset: "iris", Method: "cart", Models: 3, MeanRules: 3.3, Distinct: 5, Jaccard: &jac, DataUnits: true,
			Recurring:            []analysis.RuleCount{{Rule: "IF petal_width <= 0.8000 THEN class a", Models: 3}, {Rule: "IF petal_width > 0.8000 AND petal_length > 4.950 THEN class c", Models: 2}},
			RecurringAntecedents: []analysis.RuleCount{{Rule: "petal_width <= 0.8000", Models: 3}, {Rule: "petal_length > 4.950", Models: 2}},
			Representative: analysis.RepresentativeModel{Key: "clean/iris/cart/0/1", Fold: 1, Accuracy: 0.95, Config: "max_depth=0",
				Rules: []string{
					"IF petal_width <= 0.8000 THEN class a  [coverage 0.333, confidence 1.000]",
					"IF petal_width > 0.8000 AND petal_length <= 4.950 THEN class b  [coverage 0.325, confidence 0.962]",
					"IF petal_width > 0.8000 AND petal_length > 4.950 THEN class c  [coverage 0.342, confidence 0.951]",
				}}},
		{Protocol: "clean", Dataset: "iris", Method: "fgrt", Models: 3, MeanRules: 2, Distinct: 2, Jaccard: &jac,
			Recurring: []analysis.RuleCount{{Rule: "IF petal_length IS Low THEN class a", Models: 3}},
			Representative: analysis.RepresentativeModel{Key: "clean/iris/fgrt/0/1", Fold: 1, Accuracy: 0.91, Config: "max_rules=15",
				Rules: []string{
					"IF petal_length IS Low THEN class a  [coverage 0.331, confidence 0.990]",
					"IF petal_length IS High THEN class c  [coverage 0.402, confidence 0.780]",
				},
				Partitions: []artifacts.NamedTerm{{Feature: "petal_length", Term: "Low", Trapezoid: []float64{1, 1, 1.6, 4.35}},
					{Feature: "petal_length", Term: "High", Trapezoid: []float64{1.6, 4.35, 6.9, 6.9}}}}},
		{Protocol: "clean", Dataset: "iris", Method: "ripper", Models: 3, MeanRules: 2, Distinct: 3, Jaccard: &jac, DataUnits: true,
			Representative: analysis.RepresentativeModel{Key: "clean/iris/ripper/0/1", Fold: 1, Accuracy: 0.93, Config: "k=2",
				Rules: []string{
					"IF petal_width <= 0.8000 THEN class a  [coverage 0.333, confidence 1.000]",
					"IF 0.8000 < petal_width <= 1.700 THEN class b  [coverage 0.350, confidence 0.905]",
				},
				Default: "ELSE class c  [coverage 0.317, confidence 0.974]"}},
		{Protocol: "clean", Dataset: "iris", Method: hostileMethod, Models: 3, MeanRules: 65, Distinct: 195, LearnerUnits: true,
			Representative: analysis.RepresentativeModel{Key: "clean/iris/h/0/1", Fold: 1, Accuracy: 0.81, Config: "a=<b>",
				Rules: many, RulesOmitted: 5}},
	}
}

func fixtureInput(t testing.TB) Input {
	return Input{
		Analysis: fixtureAnalysis(t),
		Files:    []string{"REPORT.md", "analysis.json", "accuracy-clean.csv", "accuracy-clean.tex", "accuracy-clean.md", "sweeps/cart.csv"},
		Figures:  []Figure{{Path: "figures/front_clean.png", Caption: `front "clean" <b>`}},
		Provenance: Provenance{
			Facts:   []Fact{{"tool", "fgrtbench v0 (revision abc)"}, {"command", `fgrtbench run --spec s.yaml <&>`}},
			History: []Invocation{{Start: "2026-01-01 10:00:00Z", End: "2026-01-01 10:01:00Z", Command: "fgrtbench run --spec s.yaml", Version: "v0", Revision: "abc", Shard: "all"}},
		},
	}
}

// TestGolden pins the page of the fixture study; regenerate with
// go test ./reports/html -run TestGolden -update after a deliberate change.
func TestGolden(t *testing.T) {
	page, err := Render(fixtureInput(t))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Render(fixtureInput(t))
	if !bytes.Equal(page, again) {
		t.Fatal("two renders of one input differ")
	}
	golden := filepath.Join("testdata", "fixture.html")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(page, want) {
		t.Errorf("index.html differs from %s (run with -update after a deliberate change)", golden)
	}
}

// TestEscapesNamesFromData: a dataset or method name holding markup
// reaches the page only escaped, in text and in attributes alike, and the
// page has exactly its own one script.
func TestEscapesNamesFromData(t *testing.T) {
	page, err := Render(fixtureInput(t))
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, bad := range []string{"<img src=x", "<b>&amp;", "<i>display</i>", `"><img src=x`, "<&>", `<b>"`} {
		if strings.Contains(s, bad) {
			t.Errorf("page holds %q unescaped", bad)
		}
	}
	if n := strings.Count(s, "<script"); n != 1 {
		t.Errorf("%d <script> elements, want the page's own one", n)
	}
	if !strings.Contains(s, "x&#34;&gt;&lt;img src=x onerror=alert(1)&gt;") {
		t.Error("the hostile dataset name is not shown (escaped)")
	}
	for _, ref := range regexp.MustCompile(`(?:href|src)="([^"]*)"`).FindAllStringSubmatch(s, -1) {
		u := ref[1]
		if strings.Contains(u, "://") || strings.HasPrefix(u, "/") {
			t.Errorf("link %q is not relative: the page must work offline, from anywhere", u)
		}
	}
}

// cellRow matches a row of a protocol's results table: dataset and method
// attributes, then the dataset, method and accuracy cells.
var cellRow = regexp.MustCompile(`<tr data-dataset="([^"]*)" data-method="([^"]*)"[^>]*><td>[^<]*</td><td>[^<]*</td><td class="n" data-v="([^"]*)">([0-9.]+)`)

// TestNumbersAgreeWithAnalysisJSON: every cell's accuracy on the page, both
// the value it sorts by and the text shown, is the number analysis.json
// holds for that cell (the page recomputes nothing); the mean ranks too.
func TestNumbersAgreeWithAnalysisJSON(t *testing.T) {
	in := fixtureInput(t)
	page, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	js, err := in.Analysis.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Protocol, Dataset, Method string
			Accuracy                  float64
		} `json:"cells"`
		Tests []struct {
			Methods  []string `json:"methods"`
			Friedman struct {
				AvgRanks []float64 `json:"avg_ranks"`
			} `json:"friedman"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	// The results table of the protocol section only (the dataset sections
	// repeat the rows with a protocol column first).
	s := string(page)
	section := s[strings.Index(s, `id="cells-0"`):]
	section = section[:strings.Index(section, "</table>")]
	got := map[[2]string][2]string{}
	for _, m := range cellRow.FindAllStringSubmatch(section, -1) {
		got[[2]string{stdhtml.UnescapeString(m[1]), stdhtml.UnescapeString(m[2])}] = [2]string{m[3], m[4]}
	}
	if len(doc.Cells) != 12 || len(got) != len(doc.Cells) {
		t.Fatalf("page has %d cell rows, analysis.json %d cells (want 12)", len(got), len(doc.Cells))
	}
	for _, c := range doc.Cells {
		g, ok := got[[2]string{c.Dataset, c.Method}]
		if !ok {
			t.Errorf("no row for %s/%s", c.Dataset, c.Method)
			continue
		}
		v, err := strconv.ParseFloat(g[0], 64)
		if err != nil || v != c.Accuracy {
			t.Errorf("%s/%s: data-v %q, analysis.json %v", c.Dataset, c.Method, g[0], c.Accuracy)
		}
		if want := strconv.FormatFloat(c.Accuracy*100, 'f', 2, 64); g[1] != want {
			t.Errorf("%s/%s: shown %s, analysis.json gives %s", c.Dataset, c.Method, g[1], want)
		}
	}
	if len(doc.Tests) != 1 || len(doc.Tests[0].Methods) != 4 {
		t.Fatalf("tests in analysis.json: %+v", doc.Tests)
	}
	for i, m := range doc.Tests[0].Methods {
		rank := doc.Tests[0].Friedman.AvgRanks[i]
		re := regexp.MustCompile(`<tr data-method="` + regexp.QuoteMeta(stdhtml.EscapeString(m)) + `"><td>[^<]*</td><td class="n" data-v="([^"]*)">`)
		mm := re.FindStringSubmatch(s)
		if mm == nil {
			t.Errorf("no headline row for %s", m)
			continue
		}
		if v, _ := strconv.ParseFloat(mm[1], 64); v != rank {
			t.Errorf("%s: mean rank %s on the page, %v in analysis.json", m, mm[1], rank)
		}
	}
}

// TestChanceFlags: exactly the cells analysis flags at chance are shaded
// and marked in the results table.
func TestChanceFlags(t *testing.T) {
	in := fixtureInput(t)
	if len(in.Analysis.Chance) != 1 {
		t.Fatalf("fixture: %d cells at chance, want 1", len(in.Analysis.Chance))
	}
	page, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	table := s[strings.Index(s, `id="cells-0"`):]
	table = table[:strings.Index(table, "</table>")]
	c := in.Analysis.Chance[0]
	row := `<tr data-dataset="` + stdhtml.EscapeString(c.Dataset) + `" data-method="` + stdhtml.EscapeString(c.Method) + `" class="at-chance">`
	if n := strings.Count(table, `class="at-chance"`); n != 1 || !strings.Contains(table, row) {
		t.Errorf("%d rows marked at chance; want exactly %s", n, row)
	}
}

// TestFrontGeometry: points lie inside the plot area, the Pareto line
// visits exactly the front's points, and a method keeps one colour and
// marker on every panel.
func TestFrontGeometry(t *testing.T) {
	a := fixtureAnalysis(t)
	p := build(Input{Analysis: a})
	colour := map[string]string{}
	panels := 0
	for _, d := range p.Datasets {
		for _, f := range d.Fronts {
			panels++
			onFront := 0
			for _, pt := range f.Points {
				if pt.X < f.PlotLeft || pt.X > f.PlotRight || pt.Y < f.PlotTop || pt.Y > f.PlotBottom {
					t.Errorf("%s: point %+v outside the plot", f.Title, pt)
				}
				if c, ok := colour[pt.Method]; ok && c != pt.Color+pt.Shape {
					t.Errorf("%s changes colour between panels", pt.Method)
				}
				colour[pt.Method] = pt.Color + pt.Shape
				if pt.Pareto {
					onFront++
				}
			}
			if segs := strings.Count(f.Path, "M") + strings.Count(f.Path, "L"); segs != onFront || onFront == 0 {
				t.Errorf("%s: Pareto path has %d vertices, %d points on the front", f.Title, segs, onFront)
			}
		}
	}
	if panels != 3 || p.Protocols[0].Pooled == nil {
		t.Errorf("%d dataset panels and pooled %v, want 3 and a pooled panel", panels, p.Protocols[0].Pooled != nil)
	}
}

func TestFormatting(t *testing.T) {
	tenth := 0.1 // a variable: constant arithmetic would be exact
	for _, c := range []struct {
		got, want string
	}{
		{pct(0.8412), "84.12"}, {pct(math.NaN()), "n/a"}, {num(1.23456, 2), "1.23"}, {num(math.Inf(1), 2), "n/a"},
		{raw(tenth + 2*tenth), "0.30000000000000004"}, {raw(math.NaN()), ""}, {ms(0.0123), "12.3"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestRulesSection: each dataset section shows its cells' rules from the
// analysis' stability: the representative rules with their coverage and
// confidence in columns, the units note, FGRT's partitions, the recurring
// rules and conditions; a long rule set is capped and closed, its text
// escaped.
func TestRulesSection(t *testing.T) {
	page, err := Render(fixtureInput(t))
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{
		`<div class="rulesets" id="ds-2-rules">`,
		`<details class="rules" data-method="cart" open>`,
		`<details class="rules" data-method="m&#39;&lt;b&gt;&amp;amp;">`,
		`<tr><td class="n">2</td><td><code>IF petal_width &gt; 0.8000 AND petal_length &lt;= 4.950 THEN class b</code></td><td class="n">0.325</td><td class="n">0.962</td></tr>`,
		`Numeric thresholds in the data&#39;s units, to 4 significant digits`,
		`<tr><td><code>petal_width &lt;= 0.8000</code></td><td class="n">3 of 3</td></tr>`,
		`petal_length  Low   (1, 1, 1.6, 4.35)`,
		`<tr><td class="n">default</td><td><code>ELSE class c</code></td><td class="n">0.317</td><td class="n">0.974</td></tr>`,
		`<b>ripper</b> · clean protocol · 2 rules ·`,
		`<tr><td><code>IF petal_length IS Low THEN class a</code></td><td class="n">3 of 3</td></tr>`,
		`50 of 65 rules`,
		`Numeric thresholds in the units the learner saw`,
		`15 more rules: <a href="rules/iris.md">rules/iris.md</a> lists up to 1000;`,
		`IF x &lt;= 49 AND y &gt; &lt;/code&gt;&lt;script&gt;alert(49)&lt;/script&gt; THEN class a`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, unwanted := range []string{"alert(50)", `data-method="m&#39;&lt;b&gt;&amp;amp;" open>`} {
		if strings.Contains(s, unwanted) {
			t.Errorf("the page holds %q", unwanted)
		}
	}
	if n := strings.Count(s, `<details class="rules"`); n != 4 {
		t.Errorf("%d rule sets, want 4 (the fixture's stability cells)", n)
	}
}

// TestOneDatasetStudy: with one dataset there is no pooled front, so the
// protocol's section shows no legend and no "hover a point" caption (the
// dataset's own front keeps its legend), and the headline matrix shows the
// ranks on that dataset, as REPORT.md and the terminal do, not n/a.
func TestOneDatasetStudy(t *testing.T) {
	var recs []results.Record
	for _, r := range fixtureRecords() {
		if r.Dataset == "iris" && r.Method != hostileMethod {
			recs = append(recs, r)
		}
	}
	a, err := analysis.Compute(recs, analysis.Options{Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	page, err := Render(Input{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	if n := strings.Count(html, `<ul class="legend">`); n != 1 {
		t.Errorf("%d legends, want the dataset front's only", n)
	}
	if strings.Contains(html, "Hover a point") {
		t.Error("a caption about a front the section does not show")
	}
	if want := `<p class="sub">1 dataset · `; !strings.Contains(html, want) {
		t.Errorf("subtitle lacks %q (the count and its noun agree)", want)
	}
	r, _ := a.RankingOf("clean")
	for _, m := range r.Methods {
		want := fmt.Sprintf(`<tr data-method="%s"><td>%s</td><td class="n" data-v="%s">%s</td>`, m.Label, m.Display, strconv.FormatFloat(m.MeanRank, 'g', -1, 64), strconv.FormatFloat(m.MeanRank, 'f', 2, 64))
		if !strings.Contains(html, want) {
			t.Errorf("matrix lacks %s's rank %v (%s)", m.Label, m.MeanRank, want)
		}
	}
}

// TestIdentityHeader: the datasets' identity column is headed by what it
// holds: a table's content identity (a file of the user's own) is not the
// normalised file checksum the KEEL datasets are known by.
func TestIdentityHeader(t *testing.T) {
	cases := []struct {
		name, id, want string
	}{
		{"KEEL checksum", "010d7f9190b1aa0123456789abcdef0123456789abcdef0123456789abcdef", "<th>SHA-256 (normalised)</th>"},
		{"table content", "content:c5b2fa6c574dfd88b462f8d10c44083b2362f2de7d1ed58eb7f62995d800f4f8", "<th>Identity</th>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := analysis.Compute(fixtureRecords(), analysis.Options{Samples: 2000})
			if err != nil {
				t.Fatal(err)
			}
			a.Study.Datasets[0].SHA256 = c.id
			page, err := Render(Input{Analysis: a})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), c.want) {
				t.Errorf("page lacks %s", c.want)
			}
		})
	}
}

// TestMatrixInRankingOrder: the page's headline table lists the methods in
// the ranking's order, as REPORT.md's headline and the terminal do, not in
// display order (here the ranking puts the majority baseline first, which
// the display order lists last).
func TestMatrixInRankingOrder(t *testing.T) {
	recs := fixtureRecords()
	for i := range recs {
		if recs[i].Method == analysis.MajorityMethod {
			recs[i].Accuracy = 0.99
		}
	}
	a, err := analysis.Compute(recs, analysis.Options{Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	page, err := Render(Input{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	r, ok := a.RankingOf("clean")
	if !ok || r.Methods[0].Label != analysis.MajorityMethod {
		t.Fatalf("fixture: the ranking does not put the majority baseline first: %+v", r.Methods)
	}
	last := -1
	for _, m := range r.Methods {
		i := strings.Index(html, fmt.Sprintf(`<tr data-method="%s"><td>`, template.HTMLEscapeString(m.Label)))
		if i < 0 {
			t.Fatalf("matrix lacks %s", m.Label)
		}
		if i < last {
			t.Errorf("%s comes before a method the ranking puts above it", m.Label)
		}
		last = i
	}
}
