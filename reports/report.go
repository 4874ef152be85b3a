// Package reports turns results.csv records into the tables of a benchmark
// report — accuracy, complexity, datasets, partition optimisation, protocol
// gap, statistics, hyperparameter sweeps (sweep.go) and the reproduction
// check against the authors' committed numbers — each written as Markdown, LaTeX (booktabs) and CSV, and a
// REPORT.md that shows them all with the figures the caller supplies.
//
// Output is byte-deterministic: records are put in canonical order before
// aggregation, floats use fixed formats, and every list is sorted (no map
// order reaches a file). Aggregation (group-by mean and standard deviation)
// goes through one file, aggregate_gota.go, the only user of the gota data
// frame library.
package reports

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/results"
)

// DefaultTolerance is the accuracy difference (fraction) above which a
// reproduced paper-protocol mean counts as differing from the authors'
// committed mean: loose enough for summation-order noise only.
const DefaultTolerance = 1e-6

// Fact is one free-form fact about the run (from the manifest), shown in
// the given order.
type Fact struct{ Key, Value string }

// FactsFromMap turns a key/value map into facts sorted by key (map order
// must not reach the report).
func FactsFromMap(m map[string]string) []Fact {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Fact, len(keys))
	for i, k := range keys {
		out[i] = Fact{k, m[k]}
	}
	return out
}

// Figure is an image file to embed in REPORT.md. A relative Path is taken
// relative to Options.Dir.
type Figure struct{ Path, Caption string }

// Options configure a report.
type Options struct {
	// Dir is the run directory; the report is written to Dir/report/.
	Dir     string
	Title   string // default "fgrtbench report"
	Records []results.Record
	Facts   []Fact
	// Datasets feeds the dataset table (omitted when empty).
	Datasets []DatasetInfo
	Figures  []Figure
	// FiguresError, when set, says why figures are missing (the caller's
	// figure step failed and drew only Figures); REPORT.md says so in its
	// Figures section, so that a report short of figures never looks whole.
	FiguresError string
	// Tolerance for the reproduction check (fraction); 0 means DefaultTolerance.
	Tolerance float64
	// Methods names and orders the method labels (from the manifest's
	// method entries, results.PresentationOf); the zero value shows labels
	// as they are, alphabetically.
	Methods results.Presentation
	// MethodBase maps method labels to registry methods (from the
	// manifest's study), so that a sweep is shown beside the selected
	// variants of the same method; see Sweeps.
	MethodBase map[string]string
	// Stochastic lists the registry methods that draw from their seed
	// (FGA, RIPPER): with several repeats their tables show the spread
	// over seeds (SeedSpreads).
	Stochastic map[string]bool
	// Partial, when set, says how the results are knowingly incomplete
	// (e.g. "40 of 60 units; missing shards 2/3"); REPORT.md then opens
	// with a banner saying so.
	Partial string
}

// Report is a built report.
type Report struct {
	// Dir is the directory the report is (or will be) written to.
	Dir    string
	Cells  []Cell
	Tables []Table
	// Stats holds the statistical comparison of each protocol that allowed one.
	Stats []StatsResult
	// PaperCheck compares the paper protocol with the authors' means;
	// Mismatches are its rows beyond the tolerance. Both are empty when the
	// records hold no paper-protocol row.
	PaperCheck []PaperCheckRow
	Mismatches []PaperCheckRow
	// Sweeps are the hyperparameter sweeps in the records (sweep.go).
	Sweeps []Sweep
	// Markdown is the content of REPORT.md.
	Markdown []byte
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

// Build computes every table and REPORT.md without writing anything.
func Build(opts Options) (*Report, error) {
	if opts.Dir == "" {
		return nil, errors.New("reports: no output directory")
	}
	tol := opts.Tolerance
	if tol == 0 {
		tol = DefaultTolerance
	}
	if tol < 0 || math.IsNaN(tol) {
		return nil, fmt.Errorf("reports: tolerance %v must be positive", tol)
	}
	title := opts.Title
	if title == "" {
		title = "fgrtbench report"
	}
	pres := opts.Methods
	cells, err := Aggregate(opts.Records)
	if err != nil {
		return nil, err
	}
	points, err := Points(opts.Records)
	if err != nil {
		return nil, err
	}
	sweeps, err := Sweeps(points, opts.MethodBase, pres)
	if err != nil {
		return nil, err
	}
	if len(cells) == 0 && len(sweeps) == 0 {
		return nil, errors.New("reports: no selected rows and no sweep in the results")
	}
	rep := &Report{Dir: filepath.Join(opts.Dir, "report"), Cells: cells, Sweeps: sweeps}
	spreads := SeedSpreads(opts.Records, opts.MethodBase, opts.Stochastic)
	seedIx := newSpreadIndex(spreads)
	protocols := protocolsOf(cells)

	var md bytes.Buffer
	fmt.Fprintf(&md, "# %s\n\n", mdEscape(title))
	if opts.Partial != "" {
		fmt.Fprintf(&md, "> **PARTIAL RESULTS: %s.** Every mean, rank and test below covers only the units present.\n\n", mdEscape(opts.Partial))
	}
	md.WriteString("## Protocols\n\n")
	for _, p := range protocols {
		pc := filterProtocol(cells, p)
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
		fmt.Fprintf(&md, "- **%s** %s %d datasets, %d methods (%s), %s selected rows (folds × repeats) per dataset and method; selection rules: %s.\n",
			mdEscape(p), mdEscape(text), len(datasetsOf(pc)), len(methodsOf(pc, pres)), mdEscape(displayList(methodsOf(pc, pres), pres)), rows, strings.Join(sortedKeys(sel), ", "))
	}
	md.WriteString("\n")

	if len(opts.Facts) > 0 {
		md.WriteString("## Run\n\n| Fact | Value |\n|---|---|\n")
		for _, f := range opts.Facts {
			fmt.Fprintf(&md, "| %s | %s |\n", mdEscape(f.Key), mdEscape(strings.ReplaceAll(f.Value, "\n", " ")))
		}
		md.WriteString("\n")
	}

	if hasProtocol(protocols, "paper") {
		rep.PaperCheck = PaperCheck(cells)
		rep.Mismatches = PaperMismatches(rep.PaperCheck, tol)
	}
	md.Write(differencesSection(rep, cells, tol, pres))
	md.Write(holdoutPlacement(spreads, pres))

	// Tables.
	if len(opts.Datasets) > 0 {
		rep.Tables = append(rep.Tables, DatasetsTable(opts.Datasets))
	}
	var statNotes []string
	for _, p := range protocols {
		rep.Tables = append(rep.Tables, accuracyTable(cells, p, seedIx, pres), ComplexityTable(cells, p, pres))
		if st := SeedTable(spreads, p, pres); len(st.Rows) > 0 {
			rep.Tables = append(rep.Tables, st)
		}
		pt := PartitionTable(cells, p)
		if len(pt.Rows) > 0 {
			rep.Tables = append(rep.Tables, pt)
		}
		sr, err := Statistics(cells, p, pres)
		if err != nil {
			statNotes = append(statNotes, fmt.Sprintf("No statistics for the %s protocol: %v.", p, err))
			continue
		}
		rep.Stats = append(rep.Stats, sr)
		rep.Tables = append(rep.Tables, StatisticsTables(sr, pres)...)
	}
	if gt, ok := ProtocolGapTable(cells, pres); ok {
		rep.Tables = append(rep.Tables, gt)
	}
	if rep.PaperCheck != nil {
		rep.Tables = append(rep.Tables, PaperCheckTable(rep.PaperCheck, tol, pres))
	}
	md.WriteString("## Tables\n\n")
	md.WriteString("Each table is also written as LaTeX (booktabs) and CSV beside this file.\n\n")
	for _, n := range statNotes {
		md.WriteString("- " + mdEscape(n) + "\n")
	}
	if len(statNotes) > 0 {
		md.WriteString("\n")
	}
	for _, t := range rep.Tables {
		md.Write(t.Markdown())
		fmt.Fprintf(&md, "\nFiles: [%s.md](%s.md), [%s.tex](%s.tex), [%s.csv](%s.csv)\n\n", t.Name, t.Name, t.Name, t.Name, t.Name, t.Name)
	}

	md.Write(sweepSection(rep, sweeps, pres))

	if len(opts.Figures) > 0 || opts.FiguresError != "" {
		md.WriteString("## Figures\n\n")
		if opts.FiguresError != "" {
			fmt.Fprintf(&md, "> **Figures incomplete:** %s. Only the figures below were drawn.\n\n", mdEscape(opts.FiguresError))
		}
		for i, f := range opts.Figures {
			rel := figureLink(opts.Dir, f.Path)
			fmt.Fprintf(&md, "![Figure %d: %s](%s)\n\n*Figure %d.* %s\n\n", i+1, mdEscape(f.Caption), rel, i+1, mdEscape(f.Caption))
		}
	}
	rep.Markdown = md.Bytes()
	return rep, nil
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
func holdoutPlacement(spreads []SeedSpread, pres results.Presentation) []byte {
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

// differencesSection lists where the reproduction differs from the paper:
// cells beyond the tolerance against the authors' committed means, cells
// the results lack, and every paper-protocol cell whose rounded accuracy
// differs from the paper's printed value.
func differencesSection(rep *Report, cells []Cell, tol float64, pres results.Presentation) []byte {
	var b bytes.Buffer
	b.WriteString("## Where the numbers differ from the paper\n\n")
	if rep.PaperCheck == nil {
		b.WriteString("No paper-protocol results: nothing to compare with the authors' committed results.\n\n")
		return b.Bytes()
	}
	have := len(rep.PaperCheck) - len(PaperMissing(rep.PaperCheck))
	fmt.Fprintf(&b, "Against the authors' committed means (FGRT, FGRT\\*, CART, C4.5 (entropy) × ten datasets): %d of %d cells reproduced, %d differ by more than %g (fraction)",
		have, len(rep.PaperCheck), len(rep.Mismatches), tol)
	if len(rep.Mismatches) == 0 {
		b.WriteString(".\n\n")
	} else {
		b.WriteString(":\n\n")
		for _, m := range rep.Mismatches {
			fmt.Fprintf(&b, "- %s / %s: ours %s, authors %s (Δ %s pp)\n", m.Dataset, mdEscape(pres.DisplayName(m.Method)), pct(m.Ours), pct(m.Authors), signed(m.Diff*100, 4))
		}
		b.WriteString("\n")
	}
	if miss := PaperMissing(rep.PaperCheck); len(miss) > 0 && len(miss) < len(rep.PaperCheck) {
		var names []string
		for _, m := range miss {
			names = append(names, m.Dataset+"/"+pres.DisplayName(m.Method))
		}
		fmt.Fprintf(&b, "Not in these results: %s.\n\n", mdEscape(strings.Join(names, ", ")))
	}
	b.WriteString("Paper-protocol cells whose accuracy, rounded to two decimals, differs from the paper's printed table:\n\n")
	ix := newCellIndex(cells)
	var lines []string
	for _, ds := range datasetsOf(filterProtocol(cells, "paper")) {
		for _, m := range methodsOf(filterProtocol(cells, "paper"), pres) {
			c, _ := ix.get("paper", ds, m)
			if _, ok := ix.get("paper", ds, m); !ok {
				continue
			}
			_, p, diff, ok := paperSub(m, ds, c.Accuracy)
			if !ok || pct(c.Accuracy) == fixed(p, 2) {
				continue
			}
			lines = append(lines, fmt.Sprintf("| %s | %s | %s | %s | %s |", ds, mdEscape(pres.DisplayName(m)), pct(c.Accuracy), fixed(p, 2), signed(diff, 2)))
		}
	}
	if len(lines) == 0 {
		b.WriteString("none.\n\n")
	} else {
		b.WriteString("| Dataset | Method | Ours | Paper | Δ (pp) |\n|---|---|---:|---:|---:|\n")
		b.WriteString(strings.Join(lines, "\n") + "\n\n")
	}
	for _, d := range paper.Discrepancies {
		fmt.Fprintf(&b, "Known inconsistency in the paper: %s.\n\n", mdEscape(d.Note))
	}
	b.WriteString("RIPPER, FGA and a J48-style C4.5 are compared with the paper's RIPPER, FGA and C4.5 columns, for which the authors published no code; FRR is shown from the paper only.\n\n")
	return b.Bytes()
}

// Write writes every table (three formats) and REPORT.md to r.Dir, each
// through a temporary file and a rename, and removes table files a previous
// report left there that this one no longer produces.
func (r *Report) Write() error {
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{"REPORT.md": r.Markdown}
	for _, t := range r.Tables {
		if _, dup := files[t.Name+".md"]; dup {
			return fmt.Errorf("reports: two tables named %s", t.Name)
		}
		files[t.Name+".md"] = t.Markdown()
		files[t.Name+".tex"] = t.LaTeX()
		files[t.Name+".csv"] = t.CSV()
	}
	names := sortedNames(files)
	// REPORT.md goes last: a report cut short by a write error (a full
	// disk) never has a new REPORT.md that links to tables it lacks.
	order := append(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "REPORT.md" }), "REPORT.md")
	for _, n := range order {
		if err := atomicfile.WriteFile(filepath.Join(r.Dir, n), files[n]); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(r.Dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if _, ours := files[e.Name()]; ours || e.IsDir() || (ext != ".md" && ext != ".tex" && ext != ".csv") {
			continue
		}
		if err := os.Remove(filepath.Join(r.Dir, e.Name())); err != nil {
			return err
		}
	}
	r.Files = names
	return nil
}

func sortedNames(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
