package reports

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/results"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func TestAggregateSelectsAndChecks(t *testing.T) {
	cells, err := analysis.Aggregate(fixtureRecords())
	if err != nil {
		t.Fatal(err)
	}
	ix := newCellIndex(cells)
	c, ok := ix.get("paper", "wine", "fgrt")
	if !ok {
		t.Fatal("no paper/wine/fgrt cell")
	}
	// Folds 0.95, 0.9, 1: mean 0.95, population std √(0.005/3).
	if c.N != 3 || math.Abs(c.Accuracy-0.95) > 1e-12 || math.Abs(c.AccuracyStd-math.Sqrt(0.005/3)) > 1e-12 || c.Rules != 6 || c.AntecedentsPerRule != 1.5 {
		t.Errorf("paper/wine/fgrt = %+v", c)
	}
	if !c.TestSelected() || c.Selection != "test" {
		t.Errorf("selection %q", c.Selection)
	}
	if _, ok := ix.get("paper", "wine", "fga"); ok {
		t.Error("unselected sweep row produced a cell")
	}
	if c, _ := ix.get("paper", "wine", "cart"); c.Accuracy != 0.8987301587301587 || c.AccuracyStd != 0 {
		t.Errorf("two equal folds: mean %v std %v", c.Accuracy, c.AccuracyStd)
	}
	dup := append(fixtureRecords(), results.Record{Protocol: "paper", Dataset: "wine", Method: "cart", Selected: true, Fold: 1, Accuracy: 0.5})
	if _, err := analysis.Aggregate(dup); err == nil || !strings.Contains(err.Error(), "two selected rows") {
		t.Errorf("duplicate selected row: %v", err)
	}
	if cells, err := analysis.Aggregate(nil); err != nil || len(cells) != 0 {
		t.Errorf("no records: %v %v", cells, err)
	}
}

func TestDisplayNamesAndOrder(t *testing.T) {
	cases := map[string]string{
		"fgrt": "FGRT", "fgrt-opt": "FGRT*", "cart": "CART", "c45-entropy": "C4.5 (entropy, paper)", "c45": "C4.5 (J48)",
		"ripper": "RIPPER", "fga": "FGA", "cart@text": "CART@text", "knn": "knn", "knn@k3": "knn@k3",
	}
	for in, want := range cases {
		if got := paperMethods.DisplayName(in); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", in, got, want)
		}
	}
	ms := []string{"knn", "cart@text", "fga", "fgrt-opt", "c45", "cart", "fgrt", "aaa", "c45-entropy"}
	paperMethods.Sort(ms)
	if got := strings.Join(ms, " "); got != "fgrt fgrt-opt cart cart@text c45-entropy c45 fga aaa knn" {
		t.Errorf("method order: %s", got)
	}
	// Results without a manifest (no presentation): labels as they are,
	// alphabetically.
	var none results.Presentation
	if got := none.DisplayName("fgrt-opt@x"); got != "fgrt-opt@x" {
		t.Errorf("no presentation: DisplayName = %q", got)
	}
	none.Sort(ms)
	if got := strings.Join(ms, " "); got != "aaa c45 c45-entropy cart cart@text fga fgrt fgrt-opt knn" {
		t.Errorf("no presentation: method order: %s", got)
	}
}

func TestStatisticsOfFixture(t *testing.T) {
	a := analysisOf(t, fixtureRecords(), analysis.Options{Methods: paperMethods})
	sr, ok := a.TestsOf("paper")
	if !ok || sr.NA != "" {
		t.Fatalf("paper protocol: %v %q", ok, sr.NA)
	}
	if len(sr.Datasets) != 4 || len(sr.Methods) != 6 || len(sr.Excluded) != 0 {
		t.Fatalf("datasets %v methods %v excluded %v", sr.Datasets, sr.Methods, sr.Excluded)
	}
	// Every pair of 6 methods, once.
	if len(sr.Pairs) != 15 {
		t.Fatalf("%d pairs, want 15", len(sr.Pairs))
	}
	seen := map[string]bool{}
	for _, p := range sr.Pairs {
		key := p.A + "|" + p.B
		rev := p.B + "|" + p.A
		if seen[key] || seen[rev] {
			t.Errorf("pair %s twice", key)
		}
		seen[key] = true
		if p.PHolm < p.Wilcoxon.P {
			t.Errorf("%s: Holm p %v below raw %v", key, p.PHolm, p.Wilcoxon.P)
		}
	}
	// Clean has 3 methods on 3 datasets.
	if sr, ok := a.TestsOf("clean"); !ok || sr.Friedman.K != 3 || sr.Friedman.N != 3 {
		t.Errorf("clean: %+v %v", sr.Friedman, ok)
	}
	if _, ok := a.TestsOf("nope"); ok {
		t.Error("unknown protocol: found")
	}
}

func TestPaperCheck(t *testing.T) {
	cells, _ := analysis.Aggregate(fixtureRecords())
	rows := analysis.PaperCheck(cells)
	if len(rows) != 40 {
		t.Fatalf("%d rows, want 40", len(rows))
	}
	if miss := analysis.PaperMissing(rows); len(miss) != 40-12 {
		t.Errorf("%d missing, want 28", len(miss))
	}
	bad := analysis.PaperMismatches(rows, analysis.ReproductionTolerance)
	// 12 cells present (3 datasets × 4 methods); wine/cart reproduces exactly.
	if len(bad) != 11 {
		t.Errorf("%d mismatches, want 11", len(bad))
	}
	for _, b := range bad {
		if b.Dataset == "wine" && b.Method == "cart" {
			t.Error("wine/cart listed as mismatch")
		}
	}
	if n := len(analysis.PaperMismatches(rows, 1)); n != 0 {
		t.Errorf("tolerance 1: %d mismatches", n)
	}
}

func TestBuildErrors(t *testing.T) {
	a := analysisOf(t, fixtureRecords(), analysis.Options{Methods: paperMethods})
	if _, err := Build(Options{Analysis: a}); err == nil {
		t.Error("no dir: no error")
	}
	if _, err := Build(Options{Dir: t.TempDir()}); err == nil {
		t.Error("no analysis: no error")
	}
	if _, err := Build(Options{Dir: t.TempDir(), Analysis: a, Tolerance: -1}); err == nil {
		t.Error("negative tolerance: no error")
	}
}

func renderFixture(t *testing.T, recs []results.Record) (string, *Report) {
	t.Helper()
	dir := t.TempDir()
	a := analysisOf(t, recs, analysis.Options{Methods: paperMethods})
	rep, err := Render(Options{Dir: dir, Title: "Fixture report", Analysis: a, Facts: fixtureFacts, Datasets: fixtureDatasets, Figures: fixtureFigures})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "report"), rep
}

// TestGolden renders the fixture and compares every file with
// testdata/golden (regenerate with go test ./reports/... -update).
func TestGolden(t *testing.T) {
	out, rep := renderFixture(t, fixtureRecords())
	golden := filepath.Join("testdata", "golden")
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(golden, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range rep.Files {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		gp := filepath.Join(golden, name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(gp), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(gp, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(gp)
		if err != nil {
			t.Errorf("%s: %v (run go test ./reports/... -update)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file (run go test ./reports/... -update and review the diff)", name)
		}
	}
	nGolden := 0
	filepath.WalkDir(golden, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			nGolden++
		}
		return nil
	})
	if !*update && nGolden != len(rep.Files) {
		t.Errorf("golden has %d files, report %d", nGolden, len(rep.Files))
	}
	want := []string{"REPORT.md", "accuracy-paper.csv", "accuracy-clean.tex", "complexity-paper.md", "datasets.csv", "partition-clean.md",
		"ranks-paper.csv", "friedman-clean.tex", "pairwise-paper.md", "folds-paper.csv", "analysis.json", "sweeps/sweep-paper-fgrt.md", "protocol-gap.csv", "paper-check.tex"}
	for _, w := range want {
		if rankOf(rep.Files, w) == len(rep.Files) {
			t.Errorf("no %s among %v", w, rep.Files)
		}
	}
}

// TestDeterministic: rendering twice, the second time from shuffled
// records, gives byte-identical files.
func TestDeterministic(t *testing.T) {
	a, repA := renderFixture(t, fixtureRecords())
	recs := fixtureRecords()
	rng := rand.New(rand.NewPCG(11, 12))
	rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	b, repB := renderFixture(t, recs)
	if strings.Join(repA.Files, ",") != strings.Join(repB.Files, ",") {
		t.Fatalf("file lists differ: %v vs %v", repA.Files, repB.Files)
	}
	for _, name := range repA.Files {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between renders", name)
		}
	}
}

func TestReportContent(t *testing.T) {
	out, rep := renderFixture(t, fixtureRecords())
	md := string(rep.Markdown)
	for _, want := range []string{
		"## Protocols", "**paper**", "**clean**", "| seed | 42 |",
		"![Figure 1](../figures/accuracy.svg)",
		"## Comparison with the paper", "1 of 12 comparable cells reproduced",
		"## Headline (clean protocol)", "**Significance:**", "## Legend", "FRR (paper only)", "†",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	// Every table appears in REPORT.md, or a link to it.
	for _, tb := range rep.Tables {
		if !strings.Contains(md, "### "+mdEscape(tb.Title)) && !strings.Contains(md, "("+tb.Dir+"/"+tb.Name+".md)") {
			t.Errorf("REPORT.md lacks table %s", tb.Name)
		}
	}
	// No temporary files left behind; a stale table file an earlier report
	// wrote (the marker lists it) is removed; a user's files, even ones
	// named like tables, are not.
	stale := filepath.Join(out, "old-table.csv")
	os.WriteFile(stale, []byte("x"), 0o644)
	marker, _ := os.ReadFile(filepath.Join(out, MarkerFile))
	os.WriteFile(filepath.Join(out, MarkerFile), append(marker, "old-table.csv\n"...), 0o644)
	keep := filepath.Join(out, "notes.txt")
	os.WriteFile(keep, []byte("x"), 0o644)
	chapter := filepath.Join(out, "chapter3.md")
	os.WriteFile(chapter, []byte("x"), 0o644)
	if err := rep.Write(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && e.Name() != MarkerFile {
			t.Errorf("temporary file %s left", e.Name())
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("stale table file not removed")
	}
	for _, f := range []string{keep, chapter} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a file fgrtbench did not write was removed: %s", f)
		}
	}
	if m, _ := os.ReadFile(filepath.Join(out, MarkerFile)); strings.Contains(string(m), "old-table") || !strings.Contains(string(m), "REPORT.md\n") {
		t.Errorf("marker after the render: %q", m)
	}
}

// TestReportWriteTouchesOnlyItsOwnFiles: a file of the user's with a
// report's name is refused, not replaced; a report directory that is a
// link is refused, not followed; a marker naming a path outside the
// directory is refused.
func TestReportWriteTouchesOnlyItsOwnFiles(t *testing.T) {
	rep := &Report{Dir: t.TempDir(), Markdown: []byte("# r\n")}
	if err := rep.Write(); err != nil {
		t.Fatal(err)
	}
	// A second render replaces its own REPORT.md.
	if err := rep.Write(); err != nil {
		t.Fatalf("re-render: %v", err)
	}

	dir := t.TempDir()
	own := filepath.Join(dir, "REPORT.md")
	os.WriteFile(own, []byte("my thesis\n"), 0o644)
	os.WriteFile(filepath.Join(dir, MarkerFile), []byte("table1.md\n"), 0o644)
	err := (&Report{Dir: dir, Markdown: []byte("# r\n")}).Write()
	if err == nil || !strings.Contains(err.Error(), "not written by fgrtbench") {
		t.Errorf("user's REPORT.md: %v", err)
	}
	if b, _ := os.ReadFile(own); string(b) != "my thesis\n" {
		t.Errorf("user's file replaced: %q", b)
	}

	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "report")
	os.Symlink(real, link)
	err = (&Report{Dir: link, Markdown: []byte("# r\n")}).Write()
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("linked report directory: %v", err)
	}
	if entries, _ := os.ReadDir(real); len(entries) != 0 {
		t.Errorf("wrote through the link: %v", entries)
	}

	dir = t.TempDir()
	outside := filepath.Join(filepath.Dir(dir), "victim.md")
	os.WriteFile(outside, []byte("x"), 0o644)
	defer os.Remove(outside)
	os.WriteFile(filepath.Join(dir, MarkerFile), []byte("../victim.md\n"), 0o644)
	if err := (&Report{Dir: dir, Markdown: []byte("# r\n")}).Write(); err == nil {
		t.Error("a marker naming ../victim.md was accepted")
	}
	if _, err := os.Stat(outside); err != nil {
		t.Error("a file outside the report directory was removed")
	}
}

func TestFormatting(t *testing.T) {
	cases := []struct{ got, want string }{
		{fixed(-0.0001, 2), "0.00"},
		{signed(-0.0001, 2), "+0.00"},
		{signed(1.234, 2), "+1.23"},
		{signed(-1.235, 2), "-1.24"},
		{pct(0.8021645021645021), "80.22"},
		{texEscape("FGRT* 80 ± 1 † a_b 5%"), "FGRT$^{*}$ 80 $\\pm$ 1 $^{\\dagger}$ a\\_b 5\\%"},
		{mdEscape("FGRT* | x"), "FGRT\\* \\| x"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestSparseResults: one protocol, one method, one dataset — no partition,
// statistics or gap tables, but a report all the same, with the reason the
// statistics are missing.
func TestSparseResults(t *testing.T) {
	recs := []results.Record{
		{Protocol: "clean", Dataset: "wine", Method: "c45", Selected: true, Selection: "fixed", Fold: 0, Accuracy: 0.9, Rules: 5, Antecedents: 10},
		{Protocol: "clean", Dataset: "wine", Method: "c45", Selected: true, Selection: "fixed", Fold: 1, Accuracy: 0.8, Rules: 0, Antecedents: 0},
	}
	rep, err := Render(Options{Dir: t.TempDir(), Analysis: analysisOf(t, recs, analysis.Options{Methods: paperMethods})})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range rep.Tables {
		names = append(names, tb.Name)
	}
	if got := strings.Join(names, ","); got != "datasets,accuracy-clean,complexity-clean" {
		t.Errorf("tables %s", got)
	}
	md := string(rep.Markdown)
	for _, want := range []string{"No statistics for the clean protocol (n/a)", "Significance: n/a", "C4.5 (J48)", "85.00 ± 5.00"} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	// No paper cell is comparable: no paper section, no p-value.
	for _, bad := range []string{"Comparison with the paper", "p = "} {
		if strings.Contains(md, bad) {
			t.Errorf("REPORT.md has %q", bad)
		}
	}
	if rep.PaperCheck != nil || rep.Mismatches != nil {
		t.Error("paper check without paper-protocol rows")
	}
}

func BenchmarkAggregate(b *testing.B) {
	// 40 repeats of the fixture: about 6,000 rows, 4,000 of them selected.
	var recs []results.Record
	for rep := 0; rep < 40; rep++ {
		for _, r := range fixtureRecords() {
			r.Repeat = rep
			recs = append(recs, r)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := analysis.Aggregate(recs); err != nil {
			b.Fatal(err)
		}
	}
}

func TestFactsFromMap(t *testing.T) {
	got := FactsFromMap(map[string]string{"b": "2", "a": "1", "c": "3"})
	if len(got) != 3 || got[0] != (Fact{"a", "1"}) || got[2] != (Fact{"c", "3"}) {
		t.Errorf("FactsFromMap = %v", got)
	}
}

// TestMarkdownNamesMakeNoLinks: a name in Markdown link syntax is shown as
// text, not as a link.
func TestMarkdownNamesMakeNoLinks(t *testing.T) {
	if got, want := mdEscape("[click](http://x.invalid)"), `\[click\](http://x.invalid)`; got != want {
		t.Errorf("mdEscape: %q, want %q", got, want)
	}
}

// TestOwnStudyIsFramedByItself: reproduce on datasets that are not the
// paper's (a user's wine.csv whose checksum is not the registry's wine, and
// mine.csv) is titled by its datasets, not as the paper's study, and shows
// no paper section or column: no reproduction check, no comparison with
// the paper, no paper columns in the complexity and partition tables, no
// paper values in the accuracy CSV. With the paper's own wine file beside
// mine.csv, the paper's sections come back for wine only.
func TestOwnStudyIsFramedByItself(t *testing.T) {
	wine, err := datasets.Lookup("wine")
	if err != nil {
		t.Fatal(err)
	}
	var recs []results.Record
	for _, p := range []string{"paper", "clean"} {
		for _, d := range []string{"/u/wine.csv", "/u/mine.csv"} {
			for j, m := range []string{"fgrt", "fgrt-opt", "cart", "c45-entropy"} {
				for f := 0; f < 3; f++ {
					acc := 0.6 + 0.05*float64(j) + 0.01*float64(f)
					recs = append(recs, results.Record{Protocol: p, Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
						Accuracy: acc, BalancedAccuracy: acc, Rules: 3 + j, Antecedents: 5 + j, RulebaseSize: 5 + j, Key: fmt.Sprint(p, d, m, f)})
				}
			}
		}
	}
	cases := []struct {
		name, wineSHA, title string
		paperSections        bool
	}{
		{"own wine", "0000", "Study of wine, mine: the paper's methods and protocols (fgrtbench reproduce)", false},
		{"the paper's wine", wine.NormalizedSHA256, "Study of mine and 1 of the paper's: the paper's methods and protocols (fgrtbench reproduce)", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analysisOf(t, recs, analysis.Options{Name: "paper", Command: "fgrtbench reproduce --datasets /u/wine.csv,/u/mine.csv", Methods: paperMethods,
				Datasets: []analysis.DatasetInput{{Name: "/u/wine.csv", SHA256: c.wineSHA}, {Name: "/u/mine.csv", SHA256: "1111"}}})
			rep, err := Build(Options{Dir: t.TempDir(), Analysis: a})
			if err != nil {
				t.Fatal(err)
			}
			md := string(rep.Markdown)
			if first, _, _ := strings.Cut(md, "\n"); first != "# "+c.title {
				t.Errorf("title %q, want %q", first, "# "+c.title)
			}
			if strings.Contains(md, "A Fast Interpretable Fuzzy Tree Learner") {
				t.Error("a study of other datasets is framed as the paper's")
			}
			for _, section := range []string{"Reproduction check", "## Comparison with the paper", "Paper FGRT", "Paper rules", "the comparison with the paper where it applies"} {
				if got := strings.Contains(md, section); got != c.paperSections {
					t.Errorf("%q in REPORT.md: %v, want %v", section, got, c.paperSections)
				}
			}
			for _, tab := range rep.Tables {
				if tab.Name != "accuracy-paper" {
					continue
				}
				for _, row := range tab.CSVRows {
					if hasPaper := csvField(t, tab, row, "paper") != ""; hasPaper != (c.paperSections && csvField(t, tab, row, "dataset") == "wine") {
						t.Errorf("accuracy CSV row %v: a paper value %v", row[:3], hasPaper)
					}
				}
			}
		})
	}
}

// TestPaperSectionsWhereTheyApply: the paper's known inconsistency (C4.5
// on saheart) is said only in a study that compares saheart, and the
// linked reproduction check has a summary, never a heading over nothing
// but its file links.
func TestPaperSectionsWhereTheyApply(t *testing.T) {
	withSaheart := fixtureRecords()
	for _, r := range fixtureRecords() {
		if r.Protocol == "paper" && r.Dataset == "pima" {
			r.Dataset, r.Key = "saheart", strings.Replace(r.Key, "/pima/", "/saheart/", 1)
			withSaheart = append(withSaheart, r)
		}
	}
	cases := []struct {
		name         string
		recs         []results.Record
		inconsistent bool
		check        string
	}{
		{"no saheart", fixtureRecords(), false, "1 of the 12 cells of the authors' results that this study holds reproduced within 1e-06 (fraction); the other 28 of their 40 cells are not in this study. Files: [paper-check.md]"},
		{"saheart", withSaheart, true, "1 of the 16 cells of the authors' results that this study holds reproduced within 1e-06 (fraction); the other 24 of their 40 cells are not in this study. Files: [paper-check.md]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, rep := renderFixture(t, c.recs)
			md := string(rep.Markdown)
			if got := strings.Contains(md, "Known inconsistency in the paper: the paper prints 84.74 for C4.5 on saheart"); got != c.inconsistent {
				t.Errorf("saheart's inconsistency said: %v, want %v", got, c.inconsistent)
			}
			if !strings.Contains(md, "### Reproduction check: paper protocol against the authors' committed means\n\n"+c.check) {
				t.Errorf("reproduction check section lacks its summary %q", c.check)
			}
			if strings.Contains(md, "\n\n Files: [") {
				t.Error("a linked table's section with no summary")
			}
		})
	}
}
