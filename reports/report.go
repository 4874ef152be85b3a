// Package reports renders a study's analysis (package analysis, computed
// once by the caller) as the tables of a benchmark report — accuracy,
// complexity, datasets, partition optimisation, protocol gap, statistics,
// hyperparameter sweeps (sweep.go) and the reproduction check against the
// authors' committed numbers — each written as Markdown, LaTeX (booktabs)
// and CSV, and a REPORT.md that shows them all with the figures the caller
// supplies. It computes no means, ranks or tests of its own.
//
// Output is byte-deterministic: the analysis is, floats use fixed formats,
// and every list is sorted (no map order reaches a file).
package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/results"
)

// Fact is one free-form fact about the run (from the manifest), shown in
// the given order.
type Fact struct{ Key, Value string }

// Figure is an image file to embed in REPORT.md. A relative Path is taken
// relative to Options.Dir.
type Figure struct{ Path, Caption string }

// Options configure a report.
type Options struct {
	// Dir is the run directory; the report is written to Dir/report/.
	Dir string
	// Title overrides the analysis's title of the study.
	Title string
	// Analysis is the computed study every table renders (required): the
	// caller computes it once, and every view of the study renders it.
	Analysis *analysis.Analysis
	Facts    []Fact
	// Datasets feeds the dataset table's shapes (instances, features…) by
	// short dataset name; the table lists every dataset of the analysis.
	Datasets []DatasetInfo
	Figures  []Figure
	// FiguresError, when set, says why figures are missing (the caller's
	// figure step failed and drew only Figures); REPORT.md says so in its
	// Figures section, so that a report short of figures never looks whole.
	FiguresError string
	// Tolerance for the reproduction check (fraction); 0 means DefaultTolerance.
	Tolerance float64
}

// Report is a built report.
type Report struct {
	// Dir is the directory the report is (or will be) written to.
	Dir      string
	Analysis *analysis.Analysis
	Cells    []analysis.Cell
	Tables   []Table
	// Stats holds the statistical comparison of each protocol that allowed one.
	Stats []analysis.Tests
	// PaperCheck compares the paper protocol with the authors' means;
	// Mismatches are its rows beyond the tolerance. Both are empty when the
	// records hold no paper-protocol row.
	PaperCheck []analysis.PaperCheckRow
	Mismatches []analysis.PaperCheckRow
	// Sweeps are the hyperparameter sweeps in the records (sweep.go).
	Sweeps []analysis.Sweep
	// Markdown is the content of REPORT.md; JSON that of analysis.json.
	Markdown []byte
	JSON     []byte
	// Extra are further files by name relative to Dir ("rules/<dataset>.md").
	Extra map[string][]byte
	// HTML, when set (the caller renders it from this report), is written
	// as index.html.
	HTML []byte
	// Files lists the written file names (relative to Dir), sorted.
	Files []string
}

// Render builds the report and writes it to opts.Dir/report/.
func Render(opts Options) (*Report, error) {
	r, err := Build(opts)
	if err != nil {
		return nil, err
	}
	return r, r.Write()
}

var protocolText = map[string]string{
	"paper":   "reproduces the authors' experiment, leakage included: one stratified 5-fold split (seed 42) of the rows as the authors' loader stacks them, the scaler fitted on the loader's first 64% split, fuzzy partitions and the FGRT* partition optimisation fitted on all rows (test labels included), FGRT and FGRT* reporting per fold the best of 16 configurations by test-fold accuracy (marked †), CART and C4.5 (entropy) with the fixed settings of the authors' code.",
	"holdout": "evaluates once on the authors' loader split (the rows, codes and scaler of the paper protocol; stratified 80/20 with random_state 33): learners train on the 80% part (or the 64% part with holdout_train 64) and are tested on the 20% part, the split on which the paper's FGA column was measured; grids are chosen on the loader's 16% validation part; repeats re-run stochastic learners with new seeds on the same split.",
	"clean":   "fits every data-dependent step (scaling, fuzzy partitions, FGRT* optimisation) on the training folds only and chooses hyper-parameters by an inner cross-validation on the training fold, so each test fold is used once, for the final score.",
}

// Build renders every table, REPORT.md and analysis.json from the
// analysis without writing anything.
func Build(opts Options) (*Report, error) {
	if opts.Dir == "" {
		return nil, errors.New("reports: no output directory")
	}
	tol, err := toleranceOf(opts)
	if err != nil {
		return nil, err
	}
	a := opts.Analysis
	if a == nil {
		return nil, errors.New("reports: no analysis to render")
	}
	title := opts.Title
	if title == "" {
		title = a.Study.Title
	}
	pres := a.Presentation()
	rep := &Report{Dir: filepath.Join(opts.Dir, "report"), Analysis: a, Cells: a.Cells, Sweeps: a.Sweeps}
	if rep.JSON, err = a.JSON(); err != nil {
		return nil, err
	}
	lg := studyLegend(a)

	// The sections in reading order; the legend collects the symbols each
	// one uses, so it is written last.
	var md bytes.Buffer
	fmt.Fprintf(&md, "# %s\n\n", mdEscape(title))
	if a.Study.Partial != "" {
		fmt.Fprintf(&md, "> **PARTIAL RESULTS: %s.** Every mean, rank and test below covers only the units present.\n\n", mdEscape(a.Study.Partial))
	}
	md.Write(headline(a, opts, lg))
	md.Write(majorityRateSection(a, lg))
	md.Write(protocolsSection(a))
	md.Write(runSection(opts.Facts))
	if hasProtocol(a.Protocols, "paper") {
		rep.PaperCheck = analysis.PaperCheck(a.PaperCells())
		rep.Mismatches = analysis.PaperMismatches(rep.PaperCheck, tol)
	}
	md.Write(differencesSection(rep, a, tol, lg))
	md.Write(holdoutPlacement(a.SeedSpreads, pres))
	statNotes := collectTables(rep, opts, tol, lg)
	md.Write(tablesSection(rep.Tables, statNotes))
	md.Write(rulesFilesSection(rep.Extra))
	md.Write(sweepSection(rep, a.Sweeps, pres))
	md.Write(figuresSection(opts))
	md.Write(lg.markdown())
	rep.Markdown = md.Bytes()
	return rep, nil
}

// toleranceOf is the paper check's tolerance: the option, or
// DefaultTolerance when it is zero.
func toleranceOf(opts Options) (float64, error) {
	tol := opts.Tolerance
	if tol == 0 {
		tol = analysis.ReproductionTolerance
	}
	if tol < 0 || math.IsNaN(tol) {
		return 0, fmt.Errorf("reports: tolerance %v must be positive", tol)
	}
	return tol, nil
}

// studyLegend starts the legend with the study's method labels and the
// variant marks they use.
func studyLegend(a *analysis.Analysis) *legend {
	lg := newLegend()
	for _, m := range a.Methods {
		lg.variant(m.Label)
		lg.methods = append(lg.methods, m.Display+" = "+m.Label)
	}
	return lg
}

// protocolsSection describes each protocol: its datasets, methods, rows
// per dataset and method, and selection rules.
func protocolsSection(a *analysis.Analysis) []byte {
	pres := a.Presentation()
	var md bytes.Buffer
	md.WriteString("## Protocols\n\n")
	for _, p := range a.Protocols {
		pc := analysis.FilterProtocol(a.Cells, p)
		text, ok := protocolText[p]
		if !ok {
			text = "(no description of this protocol)"
		}
		minN, maxN := pc[0].N, pc[0].N
		sel := map[string]bool{}
		for _, c := range pc {
			minN, maxN = min(minN, c.N), max(maxN, c.N)
			for _, s := range strings.Split(c.Selection, "+") {
				sel[s] = true
			}
		}
		rows := fmt.Sprintf("%d", minN)
		if minN != maxN {
			rows = fmt.Sprintf("%d–%d", minN, maxN)
		}
		methods := analysis.MethodsOf(pc, pres)
		fmt.Fprintf(&md, "- **%s** %s %s, %s (%s), %s selected rows (folds × repeats) per dataset and method; selection rules: %s.\n",
			mdEscape(p), mdEscape(text), plural(len(analysis.DatasetsOf(pc)), "dataset"), plural(len(methods), "method"), mdEscape(displayList(methods, pres)), rows, strings.Join(slices.Sorted(maps.Keys(sel)), ", "))
	}
	md.WriteString("\n")
	return md.Bytes()
}

// runSection lists the facts of the run (none: no section).
func runSection(facts []Fact) []byte {
	if len(facts) == 0 {
		return nil
	}
	var md bytes.Buffer
	md.WriteString("## Run\n\n| Fact | Value |\n|---|---|\n")
	for _, f := range facts {
		fmt.Fprintf(&md, "| %s | %s |\n", mdEscape(f.Key), mdEscape(strings.ReplaceAll(f.Value, "\n", " ")))
	}
	md.WriteString("\n")
	return md.Bytes()
}

// collectTables builds every table of the report into rep (and the rules
// files into rep.Extra), in the report's order, and returns the notes of
// the protocols without statistics.
func collectTables(rep *Report, opts Options, tol float64, lg *legend) (statNotes []string) {
	a := rep.Analysis
	pres := a.Presentation()
	seedIx := newSpreadIndex(a.SeedSpreads)
	rep.Tables = append(rep.Tables, DatasetsTable(datasetRows(a, opts.Datasets)))
	for _, p := range a.Protocols {
		rep.Tables = append(rep.Tables, accuracyTable(a, p, seedIx, lg), ComplexityTable(a, p))
		if st := SeedTable(a.SeedSpreads, p, pres); len(st.Rows) > 0 {
			rep.Tables = append(rep.Tables, st)
		}
		if pt := PartitionTable(a, p); len(pt.Rows) > 0 {
			rep.Tables = append(rep.Tables, pt)
		}
		sr, _ := a.TestsOf(p)
		if sr.NA != "" {
			statNotes = append(statNotes, fmt.Sprintf("No statistics for the %s protocol (n/a): %s.", p, sr.NA))
			if len(sr.Pairs) > 0 {
				// One dataset: its fold-level comparisons are the headline.
				rep.Tables = append(rep.Tables, foldTable(sr, a))
			}
			continue
		}
		rep.Stats = append(rep.Stats, sr)
		for _, m := range []string{"CD", "ROPE", "P(A>B), P(=), P(B>A)", "NB"} {
			lg.use(m)
		}
		rep.Tables = append(rep.Tables, StatisticsTables(sr, a)...)
	}
	if len(a.Predictive) > 0 {
		for _, p := range a.Protocols {
			if t := ArtifactsTable(a, p); len(t.Rows) > 0 {
				rep.Tables = append(rep.Tables, t)
			}
		}
		rep.Extra = RulesFiles(a)
	}
	if gt, ok := ProtocolGapTable(a); ok {
		rep.Tables = append(rep.Tables, gt)
	}
	// The reproduction check applies where the results hold some cell of
	// the authors' (their methods on the paper's datasets, paper
	// protocol); elsewhere it would be a table of dashes.
	if len(rep.PaperCheck) > len(analysis.PaperMissing(rep.PaperCheck)) {
		pc := PaperCheckTable(rep.PaperCheck, tol, pres)
		pc.Linked = true
		rep.Tables = append(rep.Tables, pc)
	}
	return statNotes
}

// tablesSection shows each table, or for a linked one its summary, with
// links to its files.
func tablesSection(tables []Table, statNotes []string) []byte {
	var md bytes.Buffer
	md.WriteString("## Tables\n\n")
	md.WriteString("Each table is also written as LaTeX (booktabs) and CSV beside this file; long tables are in those files only, linked below.\n\n")
	for _, n := range statNotes {
		md.WriteString("- " + mdEscape(n) + "\n")
	}
	if len(statNotes) > 0 {
		md.WriteString("\n")
	}
	for _, t := range tables {
		if t.Linked {
			fmt.Fprintf(&md, "### %s\n\n%s Files: [%s.md](%s.md), [%s.tex](%s.tex), [%s.csv](%s.csv)\n\n", mdEscape(t.Title), mdEscape(t.Summary), t.Name, t.Name, t.Name, t.Name, t.Name, t.Name)
			continue
		}
		md.Write(t.Markdown())
		fmt.Fprintf(&md, "\nFiles: [%s.md](%s.md), [%s.tex](%s.tex), [%s.csv](%s.csv)\n\n", t.Name, t.Name, t.Name, t.Name, t.Name, t.Name)
	}
	return md.Bytes()
}

// rulesFilesSection links the per-dataset rules files (none: no section).
func rulesFilesSection(extra map[string][]byte) []byte {
	if len(extra) == 0 {
		return nil
	}
	var md bytes.Buffer
	md.WriteString("### Stored rules and confusion matrices\n\nPer dataset, from the artifacts: each method's confusion matrix, AUC and log-loss, the rules that recur across folds and seeds, and the representative fold's rules (the fold whose accuracy is the median) with the partitions they use:")
	for i, n := range sortedNames(extra) {
		sep := ","
		if i == 0 {
			sep = ""
		}
		stem := strings.TrimSuffix(strings.TrimPrefix(n, "rules/"), ".md")
		fmt.Fprintf(&md, "%s [%s](%s)", sep, mdEscape(stem), n)
	}
	md.WriteString(".\n\n")
	return md.Bytes()
}

// figuresSection shows the figures with their captions, and says when
// drawing them failed part-way.
func figuresSection(opts Options) []byte {
	if len(opts.Figures) == 0 && opts.FiguresError == "" {
		return nil
	}
	var md bytes.Buffer
	md.WriteString("## Figures\n\n")
	if opts.FiguresError != "" {
		fmt.Fprintf(&md, "> **Figures incomplete:** %s. Only the figures below were drawn.\n\n", mdEscape(opts.FiguresError))
	}
	for i, f := range opts.Figures {
		rel := figureLink(opts.Dir, f.Path)
		fmt.Fprintf(&md, "![Figure %d](%s)\n\n*Figure %d.* %s\n\n", i+1, rel, i+1, mdEscape(f.Caption))
	}
	return md.Bytes()
}

// figureLink returns the link REPORT.md (in dir/report) uses for a figure:
// relative for files inside dir (a relative path is taken as inside dir),
// the absolute path as given otherwise, so the link does not depend on
// where dir itself lives.
func figureLink(dir, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	// Figures outside the run directory keep their absolute path, so the
	// report does not depend on where the run directory lives.
	inside, err := filepath.Rel(dir, path)
	if err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(filepath.Join(dir, "report"), path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

func hasProtocol(ps []string, p string) bool { return rankOf(ps, p) < len(ps) }

func displayList(ms []string, pres results.Presentation) string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = pres.DisplayName(m)
	}
	return strings.Join(out, ", ")
}

// holdoutPlacement summarises, under the holdout protocol (the split on
// which the paper's FGA column was counted), where the paper's values fall
// in our seed distributions: the pairs outside our seeds' range, by name.
func holdoutPlacement(spreads []analysis.SeedSpread, pres results.Presentation) []byte {
	var outside []string
	n := 0
	for _, s := range spreads {
		if s.Protocol != "holdout" || !s.HasPaper {
			continue
		}
		n++
		if !s.Inside {
			outside = append(outside, fmt.Sprintf("%s %s (paper %s, %s)", s.Dataset, pres.DisplayName(s.Method), fixed(s.Paper, 2), s.Where()))
		}
	}
	if n == 0 {
		return nil
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Under the holdout protocol (the split of the paper's FGA column), the paper's value lies inside our seeds' range on %d of %d dataset–method pairs", n-len(outside), n)
	if len(outside) == 0 {
		b.WriteString(".\n\n")
	} else {
		fmt.Fprintf(&b, "; outside it on: %s.\n\n", mdEscape(strings.Join(outside, "; ")))
	}
	return b.Bytes()
}

// MarkerFile lists, one name per line, the files the last report rendered
// into a report directory (a name in a table subdirectory as SUB/NAME).
// Only the files it names are ever removed or replaced: a file of the
// user's in the directory (a thesis chapter, notes) is never touched.
const MarkerFile = ".fgrtbench-report"

// reportSubdirs are the subdirectories a report writes tables into; a
// marker may name files in them and nowhere else.
var reportSubdirs = map[string]bool{"sweeps": true, "rules": true}

// Write writes every table (three formats), analysis.json and REPORT.md to
// r.Dir, each through a temporary file and a rename, and removes table files
// a previous report left there that this one no longer produces. It replaces
// or removes only files it can prove a previous report wrote (those
// MarkerFile lists); any other file in the way is refused in one line before
// anything is written. Neither r.Dir nor a table subdirectory may be a
// symbolic link. The marker is kept by package internal/owned, the one
// write path of files fgrtbench shares a directory with; a directory with
// no marker has no file fgrtbench may replace (a report directory from
// before the marker existed is refused until its old report is moved).
func (r *Report) Write() error {
	if err := makeDir(r.Dir); err != nil {
		return err
	}
	files, subdirs, err := r.contents()
	if err != nil {
		return err
	}
	for _, sub := range subdirs {
		if err := makeDir(filepath.Join(r.Dir, sub)); err != nil {
			return err
		}
	}
	names, err := writeOwned(r.Dir, files)
	if err != nil {
		return err
	}
	r.Files = names
	return nil
}

// makeDir makes a report directory, never through a link or over a file.
func makeDir(dir string) error {
	if st, err := os.Lstat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("%s is %s, not a directory; refusing to write a report through it (remove it or report into another directory)", dir, modeKind(st.Mode()))
	}
	return os.MkdirAll(dir, 0o755)
}

// contents are the report's files by name relative to its directory, and
// the subdirectories they need in order of first use; two files of one
// name, or a file outside the report's subdirectories, are refused.
func (r *Report) contents() (map[string][]byte, []string, error) {
	files := map[string][]byte{"REPORT.md": r.Markdown}
	if r.JSON != nil {
		files["analysis.json"] = r.JSON
	}
	if r.HTML != nil {
		files["index.html"] = r.HTML
	}
	var subdirs []string
	use := func(sub string) {
		if sub != "" && !slices.Contains(subdirs, sub) {
			subdirs = append(subdirs, sub)
		}
	}
	for _, t := range r.Tables {
		stem := filepath.Join(t.Dir, t.Name)
		if _, dup := files[stem+".md"]; dup {
			return nil, nil, fmt.Errorf("reports: two tables named %s", stem)
		}
		if !reportSubdirs[t.Dir] && t.Dir != "" {
			return nil, nil, fmt.Errorf("reports: table %s in an unknown subdirectory %q", t.Name, t.Dir)
		}
		use(t.Dir)
		files[stem+".md"] = t.Markdown()
		files[stem+".tex"] = t.LaTeX()
		files[stem+".csv"] = t.CSV()
	}
	for _, n := range sortedNames(r.Extra) {
		sub, _, _ := strings.Cut(n, "/")
		if !reportSubdirs[sub] || !markerName(n) {
			return nil, nil, fmt.Errorf("reports: file %s outside the report's subdirectories", n)
		}
		if _, dup := files[n]; dup {
			return nil, nil, fmt.Errorf("reports: two files named %s", n)
		}
		use(sub)
		files[n] = r.Extra[n]
	}
	return files, subdirs, nil
}

// writeOwned writes files into the marked report directory dir, REPORT.md
// last, and removes the files a previous render wrote that this one does
// not; it returns the names written, sorted.
func writeOwned(dir string, files map[string][]byte) ([]string, error) {
	names := sortedNames(files)
	d, err := owned.OpenMarked(dir, MarkerFile, reportSubdirs)
	if err != nil {
		return nil, err
	}
	prev := d.Names()
	// The marker names old and new files while the new ones are written,
	// so a render cut short still knows every file it may remove.
	if err := d.Claim(names...); err != nil {
		return nil, err
	}
	// REPORT.md goes last: a report cut short by a write error (a full
	// disk) never has a new REPORT.md that links to tables it lacks.
	order := append(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "REPORT.md" }), "REPORT.md")
	for _, n := range order {
		if err := d.WriteFile(n, files[n]); err != nil {
			return nil, err
		}
	}
	for _, n := range prev {
		if _, ours := files[n]; ours {
			continue
		}
		if err := d.Remove(n); err != nil {
			return nil, err
		}
	}
	return names, d.Keep(names)
}

// CheckDirs refuses, before anything is rendered, a report directory
// (DIR/report) or its figures directory that is a symbolic link or not a
// directory: a report is never written through a link someone planted.
func CheckDirs(dir string) error {
	for _, d := range []string{filepath.Join(dir, "report"), filepath.Join(dir, "report", "figures")} {
		if st, err := os.Lstat(d); err == nil && !st.IsDir() {
			return fmt.Errorf("%s is %s, not a directory; refusing to write a report through it (remove it or report into another directory)", d, modeKind(st.Mode()))
		}
	}
	return nil
}

// markerName reports whether a marker line names a file a report may have
// written: a plain file name, or "SUB/NAME" for a report subdirectory.
func markerName(line string) bool {
	sub, base, nested := strings.Cut(line, "/")
	if nested && !reportSubdirs[sub] {
		return false
	}
	if !nested {
		base = line
	}
	return base != "" && base != "." && base != ".." && !strings.ContainsAny(base, "/\\\x00")
}

func modeKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a file"
	}
	return "not a directory"
}

func sortedNames(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
