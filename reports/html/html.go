// Package html renders the browsable HTML report of a study,
// report/index.html, from the study's analysis (the value analysis.json
// holds) and the manifest's provenance: the same numbers as the Markdown,
// LaTeX and CSV views, recomputed nowhere.
//
// The page is self-contained: its CSS and JavaScript are inlined from the
// embedded assets/ files, the accuracy–rulebase-size fronts are inline
// SVG, and every link is relative (to the report's tables and figures
// beside it, and to results.csv and manifest.json one directory up), so
// it works from an archive or a cluster without network. The script is
// small and written for the page (sortable and filterable tables, dataset
// and method selectors, a self-test run by opening the page with
// #selftest, which the browser test uses); without JavaScript the page
// still shows everything.
//
// Everything taken from data (dataset, method and configuration names,
// commands) goes through html/template's contextual escaping, and no
// output path is derived from data: the only file written is index.html.
package html

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// FileName is the page's name in the report directory.
const FileName = "index.html"

//go:embed assets/page.html.tmpl
var pageTemplate string

//go:embed assets/style.css
var styleCSS string

//go:embed assets/script.js
var scriptJS string

// Input is what the page shows.
type Input struct {
	Analysis *analysis.Analysis
	// Files are the report's files (tables in three formats, REPORT.md,
	// analysis.json), relative to the report directory, offered for
	// download.
	Files []string
	// Figures are the figure files relative to the report directory
	// (figures/x.png, figures/x.svg), with their captions.
	Figures []Figure
	// Provenance is what the manifest says about the run.
	Provenance Provenance
	// PaperTables are the paper study's comparison tables as package
	// reports rendered them (shown after the reproduction verdict; the
	// caller passes them for the paper's study only).
	PaperTables []Table
}

// Figure is one figure file of the report.
type Figure struct{ Path, Caption string }

// Provenance is the manifest's account of the study: facts (tool and Go
// versions, command, run), the invocations that wrote the results, and
// whether a manifest was there at all.
type Provenance struct {
	Facts   []Fact
	History []Invocation
}

// Fact is one key/value row of the provenance.
type Fact struct{ Key, Value string }

// Invocation is one command that wrote the results directory.
type Invocation struct {
	Start, End, Command, Version, Revision, Shard string
}

// Render returns index.html. It is byte-deterministic for one input.
func Render(in Input) ([]byte, error) {
	if in.Analysis == nil {
		return nil, fmt.Errorf("html: no analysis to render")
	}
	t, err := template.New("page").Funcs(template.FuncMap{
		"pct": pct, "num": num, "pval": analysis.FormatP, "ptext": analysis.PText, "raw": raw,
		"finite": func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }, "join": strings.Join, "ms": ms, "inc": func(i int) int { return i + 1 },
		"sum": func(n ...int) int {
			t := 0
			for _, v := range n {
				t += v
			}
			return t
		},
		"maxRules": func() int { return analysis.MaxRepresentativeRules },
		"count":    count,
		"align": func(align string, i int) string {
			if i < len(align) && align[i] == 'r' {
				return "n"
			}
			return ""
		},
	}).Parse(pageTemplate)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, build(in)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// page is the template's view of the input.
type page struct {
	Title, Partial, Command string
	CSS                     template.CSS
	JS                      template.JS
	Protocols               []protocolView
	Datasets                []datasetView
	Methods                 []analysis.Method
	// Compared counts the methods the tables compare, as REPORT.md's
	// study line does (Methods also holds sweep-only labels).
	Compared int
	// IdentityHeader heads the datasets' identity column: a table's
	// content identity (a file of the user's own, "content:…") is not the
	// normalised file checksum the paper's KEEL datasets are known by.
	IdentityHeader string
	Files          []fileGroup
	Figures        []Figure
	Provenance     Provenance
	Rope           float64
	Schema         int
	// Verdict is the paper study's reproduction verdict, the page's first
	// section (nil for any other study); PaperTables follow it.
	Verdict     *verdictView
	PaperTables []Table
}

type protocolView struct {
	Name   string
	Cells  []cellView
	Tests  analysis.Tests
	Matrix matrixView
	Pairs  []pairView
	Pooled *frontView
	Legend []legendView
	Chance int
	// Scores are the cells' AUC, log-loss and rule stability (empty
	// without stored artifacts).
	Scores []scoreView
}

// scoreView is one row of a protocol's scores table; empty strings show
// as "—".
type scoreView struct {
	Dataset, Method, Display                     string
	AUC, LogLoss, Rules, Distinct, Jaccard, File string
}

// matrixView is the headline table of a protocol: methods × datasets,
// accuracy with the rulebase size beneath, and the mean rank.
type matrixView struct {
	Datasets []string
	Rows     []matrixRow
}

type matrixRow struct {
	Method, Display string
	Rank            float64
	Cells           []matrixCell
}

type matrixCell struct {
	Dataset string
	Cell    *cellView // nil: no result
	Best    bool
}

type pairView struct {
	analysis.Pair
	DisplayA, DisplayB string
	Significant        bool
}

type cellView struct {
	analysis.Cell
	Display string
	Chance  bool
}

type datasetView struct {
	analysis.Dataset
	ID      string // "ds-<index>": never derived from the name
	Balance string // of the rows used
	// Used is the number of rows used (the file's rows when the manifest
	// did not record it).
	Used   int
	Cells  []cellView
	Fronts []frontView
	Legend []legendView
	// Rules are the representative rules and rule stability of each
	// (protocol, method) with stored rules, in the analysis' order.
	Rules []ruleSetView
}

// ruleSetView is one cell's rules as analysis.Stability holds them: the
// representative fold's rules, each with the coverage and confidence the
// learner printed after it, and the rules that recur across folds.
type ruleSetView struct {
	Protocol, Method, Display string
	Repeat, Fold              int
	Accuracy                  float64
	Config                    string
	Rules                     []ruleView
	// Default is the default rule (the class a row no rule covers gets),
	// shown after the rules and not counted among them; nil for a learner
	// without one.
	Default *ruleView
	// Hidden counts the representative rules the page leaves to the
	// rules page (beyond MaxPageRules), Omitted those the analysis left
	// to models.jsonl.gz (beyond analysis.MaxRepresentativeRules).
	Hidden, Omitted int
	// Open shows the rules without a click: a set short enough to read.
	Open             bool
	HasStats         bool
	Models, Distinct int
	MeanRules        float64
	Jaccard          string
	Units            string
	Recurring        []analysis.RuleCount
	MoreRecurring    int
	Conditions       []analysis.RuleCount
	MoreConditions   int
	Partitions       string
	File             string
}

// ruleView is one rule: its text and the coverage and confidence the
// learner printed after it ("" where it printed none).
type ruleView struct {
	Text, Coverage, Confidence string
}

// MaxPageRules is the number of a representative model's rules the page
// shows per cell (the rules page shows up to
// analysis.MaxRepresentativeRules); MaxOpenRules the most it shows
// without a click; MaxRecurring the recurring rules it lists.
const (
	MaxPageRules = 50
	MaxOpenRules = 15
	MaxRecurring = 10
)

// ruleStats matches the "  [coverage 0.307, confidence 0.972]" a learner
// prints after a rule (learn.RuleStats).
var ruleStats = regexp.MustCompile(`^(.*?)\s+\[coverage ([0-9.]+), confidence ([0-9.]+)\]$`)

func ruleOf(line string) ruleView {
	if m := ruleStats.FindStringSubmatch(line); m != nil {
		return ruleView{Text: m[1], Coverage: m[2], Confidence: m[3]}
	}
	return ruleView{Text: analysis.RuleText(line)}
}

// rulesOf lays out the rules of the stability cells of one dataset.
func rulesOf(a *analysis.Analysis, dataset string, name func(string) string) []ruleSetView {
	var out []ruleSetView
	for _, s := range a.Stability {
		if s.Dataset != dataset {
			continue
		}
		r := s.Representative
		v := ruleSetView{Protocol: s.Protocol, Method: s.Method, Display: name(s.Method), Repeat: r.Repeat, Fold: r.Fold,
			Accuracy: r.Accuracy, Config: r.Config, Omitted: r.RulesOmitted, Models: s.Models, Distinct: s.Distinct,
			MeanRules: s.MeanRules, File: "rules/" + safename.Component(dataset) + ".md"}
		shown := r.Rules[:min(len(r.Rules), MaxPageRules)]
		v.Hidden = len(r.Rules) - len(shown)
		for _, line := range shown {
			rv := ruleOf(line)
			v.HasStats = v.HasStats || rv.Coverage != ""
			v.Rules = append(v.Rules, rv)
		}
		if r.Default != "" {
			rv := ruleOf(r.Default)
			v.HasStats = v.HasStats || rv.Coverage != ""
			v.Default = &rv
		}
		v.Open = len(r.Rules)+r.RulesOmitted <= MaxOpenRules
		if s.Jaccard != nil {
			v.Jaccard = num(*s.Jaccard, 3)
		}
		switch {
		case s.LearnerUnits:
			v.Units = "Numeric thresholds in the units the learner saw (the protocol's scaled units): this study was stored before rules were recorded in the data's units."
		case s.DataUnits:
			v.Units = "Numeric thresholds in the data's units, to 4 significant digits (models.jsonl.gz keeps them at full precision)."
		}
		v.Recurring = s.Recurring[:min(len(s.Recurring), MaxRecurring)]
		v.MoreRecurring = len(s.Recurring) - len(v.Recurring)
		v.Conditions = s.RecurringAntecedents[:min(len(s.RecurringAntecedents), MaxRecurring)]
		v.MoreConditions = len(s.RecurringAntecedents) - len(v.Conditions)
		if len(r.Partitions) > 0 {
			v.Partitions = artifacts.FormatPartitions(r.Partitions)
		}
		out = append(out, v)
	}
	return out
}

type fileGroup struct {
	Name  string
	Files []string
}

func build(in Input) page {
	a := in.Analysis
	p := page{Title: a.Study.Title, Partial: a.Study.Partial, Command: a.Study.Command,
		CSS: template.CSS(styleCSS), JS: template.JS(scriptJS), Methods: a.Methods, Compared: len(a.ComparedMethods()),
		Figures: in.Figures, Provenance: in.Provenance, Rope: a.Rope, Schema: a.Schema, Verdict: verdictOf(a.Reproduction)}
	if p.Verdict != nil {
		p.PaperTables = in.PaperTables
	}
	b := newPageBuilder(a, &p)
	b.datasets()
	for _, proto := range a.Protocols {
		p.Protocols = append(p.Protocols, b.protocol(proto))
	}
	for i := range p.Datasets {
		p.Datasets[i].Rules = rulesOf(a, p.Datasets[i].Name, b.name)
		seen := map[string]bool{}
		for _, f := range p.Datasets[i].Fronts {
			for _, pt := range f.Points {
				seen[pt.Method] = true
			}
		}
		p.Datasets[i].Legend = b.legendOf(seen)
	}
	p.Files = groupFiles(in.Files, in.Figures)
	return p
}

// pageBuilder fills a page from an analysis: the lookups every part of
// the page shares.
type pageBuilder struct {
	a       *analysis.Analysis
	p       *page
	display map[string]string
	chance  map[[3]string]bool
	// dsIndex places a dataset's name in p.Datasets; methodIndex gives
	// each method one colour and marker across every panel of the page.
	dsIndex, methodIndex map[string]int
}

func newPageBuilder(a *analysis.Analysis, p *page) *pageBuilder {
	b := &pageBuilder{a: a, p: p, display: map[string]string{}, chance: map[[3]string]bool{}, dsIndex: map[string]int{}, methodIndex: map[string]int{}}
	for _, m := range a.Methods {
		b.display[m.Label] = m.Display
	}
	for _, c := range a.Chance {
		b.chance[[3]string{c.Protocol, c.Dataset, c.Method}] = true
	}
	for i, m := range a.Methods {
		b.methodIndex[m.Label] = i
	}
	return b
}

// name is a method label's display name (the label when it has none).
func (b *pageBuilder) name(label string) string {
	if d := b.display[label]; d != "" {
		return d
	}
	return label
}

// datasets adds a view of each dataset of the study.
func (b *pageBuilder) datasets() {
	for i, d := range b.a.Study.Datasets {
		dv := datasetView{Dataset: d, ID: "ds-" + strconv.Itoa(i+1), Balance: balance(d), Used: d.Rows}
		if d.RowsUsed > 0 {
			dv.Used = d.RowsUsed
		}
		b.dsIndex[d.Name] = i
		b.p.Datasets = append(b.p.Datasets, dv)
		if strings.HasPrefix(dv.SHA256, "content:") {
			b.p.IdentityHeader = "Identity"
		}
	}
}

// protocol is a protocol's view: its cells (also added to their
// datasets' views), tests, matrix, pairs and fronts.
func (b *pageBuilder) protocol(proto string) protocolView {
	a := b.a
	pv := protocolView{Name: proto, Scores: scoresOf(a, proto, b.name)}
	for _, c := range a.Cells {
		if c.Protocol != proto {
			continue
		}
		cv := cellView{Cell: c, Display: b.name(c.Method), Chance: b.chance[[3]string{c.Protocol, c.Dataset, c.Method}]}
		if cv.Chance {
			pv.Chance++
		}
		pv.Cells = append(pv.Cells, cv)
		if i, ok := b.dsIndex[c.Dataset]; ok {
			b.p.Datasets[i].Cells = append(b.p.Datasets[i].Cells, cv)
		}
	}
	byKey := map[[2]string]*cellView{}
	for i := range pv.Cells {
		byKey[[2]string{pv.Cells[i].Dataset, pv.Cells[i].Method}] = &pv.Cells[i]
	}
	t, _ := a.TestsOf(proto)
	pv.Tests = t
	pv.Matrix = matrixOf(a, proto, byKey, t, b.name)
	// An entry that stands for labels with identical results is named
	// after all of them (analysis.Tests.EntryName, with the page's names).
	entry := func(label string) string {
		for _, g := range t.Merged {
			if g[0] == label {
				names := make([]string, len(g))
				for i, m := range g {
					names[i] = b.name(m)
				}
				return strings.Join(names, " = ")
			}
		}
		return b.name(label)
	}
	for _, pr := range t.Pairs {
		pv.Pairs = append(pv.Pairs, pairView{Pair: pr, DisplayA: entry(pr.A), DisplayB: entry(pr.B), Significant: pr.Significant})
	}
	b.fronts(&pv)
	return pv
}

// fronts adds a protocol's pooled front to its view, with the legend of
// the methods it shows, and each dataset's front to the dataset's view.
func (b *pageBuilder) fronts(pv *protocolView) {
	f, ok := b.a.FrontOf(pv.Name)
	if !ok {
		return
	}
	seen := map[string]bool{}
	for _, panel := range f.Panels {
		fv := frontOf(pv.Name, panel, b.name, b.methodIndex)
		if panel.Dataset == "" {
			pv.Pooled = &fv
			// The protocol's legend keys the pooled plot: a study of one
			// dataset has none, and so no legend there.
			for _, pt := range panel.Points {
				seen[pt.Method] = true
			}
		} else if i, ok := b.dsIndex[panel.Dataset]; ok {
			b.p.Datasets[i].Fronts = append(b.p.Datasets[i].Fronts, fv)
		}
	}
	pv.Legend = b.legendOf(seen)
}

// legendOf keys the methods seen, in the study's method order.
func (b *pageBuilder) legendOf(seen map[string]bool) []legendView {
	var out []legendView
	for _, m := range b.a.Methods {
		if seen[m.Label] {
			out = append(out, legendOf(m.Label, m.Display, b.methodIndex[m.Label]))
		}
	}
	return out
}

// matrixOf lays out a protocol's headline table: its methods in the
// ranking's order, its datasets in the study's order, the best accuracy of each
// dataset marked (the analysis's best_on_dataset).
func matrixOf(a *analysis.Analysis, proto string, byKey map[[2]string]*cellView, t analysis.Tests, name func(string) string) matrixView {
	var mv matrixView
	hasDs, hasM := map[string]bool{}, map[string]bool{}
	for k := range byKey {
		hasDs[k[0]], hasM[k[1]] = true, true
	}
	for _, d := range a.Study.Datasets {
		if hasDs[d.Name] {
			mv.Datasets = append(mv.Datasets, d.Name)
		}
	}
	// The mean ranks are the ranking's, as REPORT.md's headline and the
	// terminal show them (with one dataset, the ranks on it).
	// The rows come in the ranking's order, as REPORT.md's headline and
	// the terminal list them; methods the ranking lacks follow in display
	// order.
	ranks := map[string]float64{}
	var order []string
	if r, ok := a.RankingOf(proto); ok {
		for _, m := range r.Methods {
			ranks[m.Label] = m.MeanRank
			order = append(order, m.Label)
		}
	}
	for _, m := range a.Methods {
		if _, ranked := ranks[m.Label]; !ranked {
			order = append(order, m.Label)
		}
	}
	for _, label := range order {
		m := analysis.Method{Label: label}
		if !hasM[m.Label] {
			continue
		}
		rank, ok := ranks[m.Label]
		if !ok {
			rank = t.MeanRank(m.Label)
		}
		row := matrixRow{Method: m.Label, Display: name(m.Label), Rank: rank}
		for _, d := range mv.Datasets {
			c := byKey[[2]string{d, m.Label}]
			row.Cells = append(row.Cells, matrixCell{Dataset: d, Cell: c, Best: c != nil && c.BestOnDataset})
		}
		mv.Rows = append(mv.Rows, row)
	}
	return mv
}

// balance describes the class counts of a dataset's rows used, else of
// its file ("—" when unknown).
func balance(d analysis.Dataset) string {
	counts := d.ClassCounts
	if len(d.ClassCountsUsed) > 0 {
		counts = d.ClassCountsUsed
	}
	if len(counts) == 0 {
		return "—"
	}
	parts := make([]string, len(counts))
	for i, n := range counts {
		c := strconv.Itoa(i)
		if i < len(d.Classes) {
			c = d.Classes[i]
		}
		parts[i] = c + ": " + strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// groupFiles sorts the downloadable files into tables (by extension),
// figures and the rest.
func groupFiles(files []string, figs []Figure) []fileGroup {
	groups := map[string][]string{}
	for _, f := range files {
		switch {
		case strings.HasPrefix(f, "rules/"):
			groups["Stored rules and confusion matrices"] = append(groups["Stored rules and confusion matrices"], f)
		case strings.HasSuffix(f, ".csv"):
			groups["CSV tables"] = append(groups["CSV tables"], f)
		case strings.HasSuffix(f, ".tex"):
			groups["LaTeX tables"] = append(groups["LaTeX tables"], f)
		case strings.HasSuffix(f, ".md") && f != "REPORT.md":
			groups["Markdown tables"] = append(groups["Markdown tables"], f)
		case f == FileName:
		case strings.HasSuffix(f, ".svg") || strings.HasSuffix(f, ".png"):
			groups["Figures"] = append(groups["Figures"], f)
		default:
			groups["Report"] = append(groups["Report"], f)
		}
	}
	for _, f := range figs {
		groups["Figures"] = append(groups["Figures"], f.Path)
	}
	var out []fileGroup
	for _, n := range []string{"Report", "Stored rules and confusion matrices", "CSV tables", "LaTeX tables", "Markdown tables", "Figures"} {
		if fs := groups[n]; len(fs) > 0 {
			sort.Strings(fs)
			out = append(out, fileGroup{Name: n, Files: fs})
		}
	}
	return out
}

// pct formats a fraction as a percentage with two decimals, as the other
// views do; "n/a" for a non-finite value.
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(x*100, 'f', 2, 64)
}

// num formats a value with the given decimals; "n/a" when not finite.
func num(x float64, decimals int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(x, 'f', decimals, 64)
}

// ms formats seconds as milliseconds with one decimal.
func ms(x float64) string { return num(x*1000, 1) }

// raw is a value as analysis.json writes it (the shortest representation
// that reads back as the same float64), for sorting and for the test that
// the page and analysis.json agree; "" when not finite (JSON's null).
func raw(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// scoresOf lists a protocol's AUC, log-loss and rule stability per cell.
func scoresOf(a *analysis.Analysis, proto string, name func(string) string) []scoreView {
	stab := map[[2]string]analysis.Stability{}
	for _, s := range a.Stability {
		if s.Protocol == proto {
			stab[[2]string{s.Dataset, s.Method}] = s
		}
	}
	opt := func(v *float64, dec int) string {
		if v == nil {
			return ""
		}
		return num(*v, dec)
	}
	var out []scoreView
	for _, p := range a.PredictiveOf(proto) {
		v := scoreView{Dataset: p.Dataset, Method: p.Method, Display: name(p.Method), AUC: opt(p.AUC, 4), LogLoss: opt(p.LogLoss, 4),
			File: "rules/" + safename.Component(p.Dataset) + ".md"}
		if s, ok := stab[[2]string{p.Dataset, p.Method}]; ok {
			v.Rules, v.Distinct, v.Jaccard = num(s.MeanRules, 1), strconv.Itoa(s.Distinct), opt(s.Jaccard, 3)
		}
		out = append(out, v)
	}
	return out
}

// count writes a count with its noun in the number it takes ("1 dataset",
// "3 datasets"), for the page's sentences.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
