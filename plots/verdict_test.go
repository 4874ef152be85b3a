package plots

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestVerdictAgreesAcrossViews renders two studies — two datasets on which
// one of two methods wins both (exact test, Iman–Davenport infinite) and
// the twelve-method study of TestViewsAgree (Monte Carlo) — and checks
// that REPORT.md's significance line, the Friedman table, the CD figure's
// caption and analysis.json state the same test, p-value and verdict, that
// no p-value prints as "p = <", and that the exploratory label follows the
// verdict.
func TestVerdictAgreesAcrossViews(t *testing.T) {
	alike := func(methods []string, datasets []string) []results.Record {
		var out []results.Record
		for i, m := range methods {
			for j, d := range datasets {
				for f := 0; f < 5; f++ {
					acc := 0.9 - 0.1*float64(i) - 0.05*float64(j) + 0.001*float64(f)
					out = append(out, results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
						Accuracy: acc, BalancedAccuracy: acc, Rules: 2, Antecedents: 3, RulebaseSize: 3, Key: m + d})
				}
			}
		}
		return out
	}
	for _, c := range []struct {
		name        string
		recs        []results.Record
		test        string
		significant bool
		identical   bool
	}{
		{"one method wins both datasets", alike([]string{"cart", "majority"}, []string{"wine", "zoo"}), analysis.TestFriedmanExact, false, true},
		// 1/36 < α: significant, and the post-hoc comparisons confirmatory.
		{"three datasets rank three methods alike", alike([]string{"cart", "c45", "majority"}, []string{"pima", "wine", "zoo"}), analysis.TestFriedmanExact, true, true},
		{"twelve methods", viewRecords("mine.csv"), analysis.TestFriedmanMonteCarlo, false, false},
	} {
		dir := t.TempDir()
		a, err := analysis.Compute(c.recs, analysis.Options{Name: "verdict", Samples: 2000})
		if err != nil {
			t.Fatal(err)
		}
		ts, _ := a.TestsOf("clean")
		d := ts.Decision
		if d.Test != c.test || d.Significant != c.significant || ts.Friedman.Identical != c.identical {
			t.Fatalf("%s: decision %+v identical %v", c.name, d, ts.Friedman.Identical)
		}
		figs, err := RenderAll(filepath.Join(dir, "report", "figures"), Inputs{Analysis: a})
		if err != nil {
			t.Fatal(err)
		}
		var rfigs []reports.Figure
		caption := ""
		for _, f := range figs {
			rfigs = append(rfigs, reports.Figure{Path: filepath.Join("report", f.Path), Caption: f.Caption})
			if strings.HasPrefix(filepath.Base(f.Path), "cd_clean") {
				caption = f.Caption
			}
		}
		rep, err := reports.Render(reports.Options{Dir: dir, Analysis: a, Figures: rfigs})
		if err != nil {
			t.Fatal(err)
		}
		md := string(rep.Markdown)
		p := analysis.PText(d.P)
		verdict := "do not differ significantly"
		if c.significant {
			verdict = "differ significantly"
		}
		var line string
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "**Significance:**") {
				line = l
			}
		}
		t.Logf("%s: %s", c.name, line)
		if !strings.Contains(line, verdict+" ("+d.Name+", "+p+", α = 0.05)") {
			t.Errorf("%s: significance line %q does not state %q, %s", c.name, line, d.Name, p)
		}
		word, postHoc := "not significant", analysis.PostHocExploratory
		if c.significant {
			word, postHoc = "significant", analysis.PostHocConfirmatory
		}
		if !strings.Contains(caption, d.Name+", "+p+": "+word+" at alpha") || strings.Contains(caption, "exploratory") == c.significant {
			t.Errorf("%s: CD caption %q does not state %s, %s", c.name, caption, p, word)
		}
		if strings.Contains(line, "exploratory") == c.significant {
			t.Errorf("%s: exploratory label wrong in the significance line: %q", c.name, line)
		}
		if strings.Contains(md, "p = <") || strings.Contains(md, "p = \\<") {
			t.Errorf("%s: REPORT.md prints \"p = <\"", c.name)
		}
		if c.identical != strings.Contains(md, "| not reported (infinite) |") {
			t.Errorf("%s: Iman–Davenport row wrong", c.name)
		}
		if !c.identical && !strings.Contains(md, "| Permutation test p, 99 % interval |") {
			t.Errorf("%s: Monte Carlo precision not stated", c.name)
		}
		js, err := os.ReadFile(filepath.Join(rep.Dir, "analysis.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Tests []struct {
				Decision analysis.Decision `json:"decision"`
				PostHoc  string            `json:"post_hoc"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(js, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Tests[0].Decision != d || doc.Tests[0].PostHoc != postHoc {
			t.Errorf("%s: analysis.json decision %+v post-hoc %q, analysis %+v", c.name, doc.Tests[0].Decision, doc.Tests[0].PostHoc, d)
		}
	}
}
