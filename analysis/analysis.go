// Package analysis computes, once per study, everything a report shows:
// the cells (per protocol, dataset and method: means, spreads, counts,
// balanced accuracy, rules, fit time, the selection rule), the sweeps (per
// point aggregates, ranks, best points), the seed spreads of stochastic
// methods, the mean ranks and every statistical test, the
// accuracy–rulebase-size fronts and the chance flags.
//
// It reads results.csv records and what the caller took from the manifest
// (Study, a Presentation, the label → method map): never a learner, the
// method registry or the runner. Every view — Markdown, LaTeX and CSV
// tables, analysis.json, the figures — renders an *Analysis and
// recomputes nothing, so that a figure and a table showing the same
// quantity cannot disagree.
//
// The Analysis value is the JSON document report/analysis.json (see
// JSON): its field names are part of the contract with the HTML report
// and are kept stable; docs/report.md lists them.
package analysis

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

// Schema is the version of analysis.json's layout; it changes only when a
// field is renamed or removed. Added fields keep it: tests[] gained
// missing, friedman.identical, friedman_permutation, decision, post_hoc,
// zero_method (and each pair's wilcoxon zero_method and continuity),
// best_mean_rank, within_cd05_of_best, nemenyi_cliques, each pair's
// significant and each per_dataset comparison's decisive; cells[] gained
// best_on_dataset; the analysis gained means, gap_means, complexity, partition and reproduction;
// tests[] gained exact_differences, baselines, baseline_ranks, merged, merged_by,
// comparisons, post_hoc_min_p, post_hoc_min_p_holm, post_hoc_powerless,
// summary, all_pairs and all_pairs_power, and each pair
// mean_diff_ci95_pp, wins, ties, losses and ties_exact —
// all within schema 1; a reader of the older layout ignores them. Since
// baselines and merged exist, tests[].methods lists the ranked entries
// (not the baselines, one label per merged group); rankings[] still has
// every method.
const Schema = 1

// Alpha is the significance level of the tests' verdicts and of the
// critical-difference diagram.
const Alpha = 0.05

// Study is what the report says about the study as a whole.
type Study struct {
	// Name is the spec's name: (or the command for reproduce); Title the
	// report's title built from it.
	Name  string `json:"name"`
	Title string `json:"title"`
	// Command is the command line that produced the results (arguments
	// that are paths reduced to their last element).
	Command string `json:"command,omitempty"`
	// Partial says how the results fall short of the study ("" when whole).
	Partial string `json:"partial,omitempty"`
	// Datasets are the study's datasets with their short unique names.
	Datasets []Dataset `json:"datasets"`
}

// Dataset is one dataset of the study.
type Dataset struct {
	// Name is the short unique name every view uses (a file's stem,
	// disambiguated by its directory or a counter); never a path.
	Name   string `json:"name"`
	SHA256 string `json:"normalized_sha256,omitempty"`
	// Rows is the number of data rows in the file.
	Rows int `json:"rows,omitempty"`
	// Classes and ClassCounts give the class balance of the file's rows
	// when the manifest recorded it (empty otherwise: the views print "—").
	Classes     []string `json:"classes,omitempty"`
	ClassCounts []int    `json:"class_counts,omitempty"`
	// RowsUsed is the number of rows the study's protocols evaluated on
	// (the file's rows less those dropped for a missing input), and
	// ClassCountsUsed their class balance; both absent when the manifest
	// did not record them (results made before it did: every protocol
	// then dropped the rows with a missing input) or when the protocols
	// used different rows.
	RowsUsed        int   `json:"rows_used,omitempty"`
	ClassCountsUsed []int `json:"class_counts_used,omitempty"`
	// Features, NominalFeatures and MissingRows (rows of the file with a
	// missing input) describe the file when the manifest recorded them
	// (Features 0 otherwise).
	Features        int `json:"features,omitempty"`
	NominalFeatures int `json:"nominal_features,omitempty"`
	MissingRows     int `json:"missing_rows,omitempty"`
	// CellsImputed is the number of missing cells a protocol filled
	// (missing-value policy impute; 0 otherwise).
	CellsImputed int `json:"cells_imputed,omitempty"`
	// MajorityRate is the share of the most frequent class among the rows
	// used (among the file's rows when the rows used are unknown; NaN when
	// the class counts are unknown): the accuracy of the majority-class
	// baseline on those rows.
	MajorityRate float64 `json:"majority_rate"`
}

// DatasetInput is a dataset as the caller knows it (from the manifest):
// its results.csv name, which may be a path.
type DatasetInput struct {
	Name        string
	SHA256      string
	Rows        int
	Classes     []string
	ClassCounts []int
	// RowsUsed and ClassCountsUsed are the rows used (0 and nil when
	// unknown).
	RowsUsed        int
	ClassCountsUsed []int
	// Features, NominalFeatures and MissingRows describe the file
	// (Features 0 when unknown); CellsImputed counts the missing cells a
	// protocol filled.
	Features, NominalFeatures, MissingRows, CellsImputed int
}

// Options configure Compute.
type Options struct {
	// Name, Command and Partial describe the study (see Study).
	Name, Command, Partial string
	// Datasets are the manifest's datasets (may be empty).
	Datasets []DatasetInput
	// Methods names and orders the method labels.
	Methods results.Presentation
	// MethodBase maps method labels to registry methods (fgrt-fixed →
	// fgrt); labels not in it stand for themselves.
	MethodBase map[string]string
	// Stochastic lists the registry methods that draw from their seed.
	Stochastic map[string]bool
	// Reference, when set, is the method label every other method is
	// compared with; otherwise every pair is compared.
	Reference string
	// Baselines are method labels that are reference points, not
	// competitors (the majority-class baseline, a spec's baseline: true):
	// the tests leave them out of the ranking and name them
	// (Tests.Baselines). Empty ranks every method.
	Baselines []string
	// KeepDuplicates ranks apart labels with identical results on every
	// fold; by default they are one entry (Tests.Merged).
	KeepDuplicates bool
	// Rope is the half-width of the region of practical equivalence of the
	// Bayesian tests, as a fraction of accuracy (0: stats.DefaultRope).
	Rope float64
	// ZeroMethod is the Wilcoxon tests' zero-difference convention:
	// stats.ZeroWilcox ("" too), ZeroPratt or ZeroSplit.
	ZeroMethod string
	// Samples is the number of Monte-Carlo draws of the Bayesian
	// signed-rank test (0: the stats default).
	Samples int
	// Artifacts are the stored predictions and models (nil: a directory
	// without them); they give Predictive and Stability.
	Artifacts *Artifacts
	// LoadArtifacts, when set, reads them instead: Compute calls it once,
	// on its own goroutine, while it computes everything else (on a full
	// reproduction reading and re-deriving the artifacts takes about as
	// long as the statistical tests, so the two overlap). Its error is
	// Compute's error, before any of the analysis's own; it may return
	// nil (no artifacts).
	LoadArtifacts func() (*Artifacts, error)
	// Threads is how many protocols' tests are computed at once (0 or 1:
	// one at a time; the report passes its -j). The analysis does not
	// depend on it: each test draws from its own seeded generator.
	Threads int
}

// Method is one method label of the study.
type Method struct {
	Label   string `json:"label"`
	Display string `json:"display"`
	// Base is the registry method; Variant the suffix after '@' ("" for none).
	Base    string `json:"base"`
	Variant string `json:"variant,omitempty"`
}

// Analysis is the computed study. Every slice is in display order.
type Analysis struct {
	Schema    int      `json:"schema"`
	Study     Study    `json:"study"`
	Protocols []string `json:"protocols"`
	Methods   []Method `json:"methods"`
	Cells     []Cell   `json:"cells"`
	// Points are the aggregated sweep points and selected rows (the
	// fronts' and sweeps' inputs); not written to analysis.json, whose
	// sweeps and fronts hold them.
	Points      []Point      `json:"-"`
	Sweeps      []Sweep      `json:"sweeps"`
	SeedSpreads []SeedSpread `json:"seed_spreads"`
	// Tests holds the statistics of each protocol, in Protocols order.
	Tests []Tests `json:"tests"`
	// Headline is the protocol the headline shows (clean when the study
	// ran it); Rankings hold each protocol's methods in the order every
	// view lists them, with their mean ranks (ranking.go), in Protocols
	// order.
	Headline string    `json:"headline_protocol"`
	Rankings []Ranking `json:"rankings"`
	Fronts   []Front   `json:"fronts"`
	// Means are each protocol's methods' mean accuracies (means.go), in
	// Protocols and display order; GapMeans the mean protocol gap per
	// method (paper minus clean), empty unless both protocols ran.
	Means    []MethodMean `json:"means"`
	GapMeans []GapMean    `json:"gap_means"`
	// Complexity is each protocol's methods' model complexity averaged
	// over datasets, in Protocols and display order.
	Complexity []ComplexityMean `json:"complexity"`
	// Partition is each protocol's effect of partition optimisation
	// (partition.go), where the study ran FGRT and FGRT*.
	Partition []PartitionEffect `json:"partition"`
	Chance    []Chance          `json:"chance"`
	// Reproduction is the paper study's reproduction verdict (verdict.go;
	// nil for any other study).
	Reproduction *Reproduction `json:"reproduction,omitempty"`
	// Ablations are the FGRT grid's ablation groups (empty without FGRT
	// grid or one-factor rows).
	Ablations []Ablation `json:"ablations"`
	// Predictive holds, per cell, the confusion matrix, AUC and log-loss
	// of the stored predictions; Stability the rule stability of the
	// stored models and the representative fold's rules. Both are empty
	// without artifacts.
	Predictive []Predictive `json:"predictive,omitempty"`
	Stability  []Stability  `json:"rule_stability,omitempty"`
	// Warnings say what could not be computed (and is therefore missing).
	Warnings []string `json:"warnings,omitempty"`
	// Rope and Reference are the options the tests used.
	Rope      float64 `json:"rope"`
	Reference string  `json:"reference,omitempty"`

	pres results.Presentation
	base map[string]string
}

// Presentation returns the presentation the analysis was computed with.
func (a *Analysis) Presentation() results.Presentation { return a.pres }

// MethodBase returns the label → registry method map.
func (a *Analysis) MethodBase() map[string]string { return a.base }

// Display returns a label's display name.
func (a *Analysis) Display(label string) string { return a.pres.DisplayName(label) }

// TestsOf returns the statistics of a protocol.
func (a *Analysis) TestsOf(protocol string) (Tests, bool) {
	for _, t := range a.Tests {
		if t.Protocol == protocol {
			return t, true
		}
	}
	return Tests{}, false
}

// FrontOf returns the front of a protocol.
func (a *Analysis) FrontOf(protocol string) (Front, bool) {
	for _, f := range a.Fronts {
		if f.Protocol == protocol {
			return f, true
		}
	}
	return Front{}, false
}

// ChanceOf reports whether a cell is flagged at chance.
func (a *Analysis) ChanceOf(protocol, dataset, method string) (Chance, bool) {
	for _, c := range a.Chance {
		if c.Protocol == protocol && c.Dataset == dataset && c.Method == method {
			return c, true
		}
	}
	return Chance{}, false
}

// Compute computes the analysis of records. Dataset names that are paths
// are replaced by short unique names before anything is aggregated, so no
// view can show a path.
func Compute(recs []results.Record, opts Options) (*Analysis, error) {
	art := opts.Artifacts
	var artErr error
	loaded := make(chan struct{})
	if opts.LoadArtifacts != nil {
		go func() {
			defer close(loaded)
			art, artErr = opts.LoadArtifacts()
		}()
	} else {
		close(loaded)
	}
	a, renamedRecs, err := compute(recs, opts)
	<-loaded
	if artErr != nil {
		return nil, artErr
	}
	if err != nil {
		return nil, err
	}
	if art != nil {
		a.Predictive, a.Stability = computeArtifacts(renamedRecs, *art, a.Cells)
	}
	return a, nil
}

// compute is Compute without the artifacts; it returns the records with
// their datasets' short names, which the artifacts' tables use too.
func compute(recs []results.Record, opts Options) (*Analysis, []results.Record, error) {
	rope, err := ropeOf(opts)
	if err != nil {
		return nil, nil, err
	}
	short := ShortNames(datasetNames(recs, opts.Datasets))
	recs = renamed(recs, short)
	a := &Analysis{Schema: Schema, Rope: rope, Reference: opts.Reference, pres: opts.Methods, base: opts.MethodBase}
	a.Study = Study{Name: opts.Name, Command: opts.Command, Partial: opts.Partial}
	if a.Cells, err = Aggregate(recs); err != nil {
		return nil, nil, err
	}
	markBest(a.Cells)
	if a.Points, err = Points(recs); err != nil {
		return nil, nil, err
	}
	if a.Sweeps, err = Sweeps(a.Points, opts.MethodBase, opts.Methods); err != nil {
		return nil, nil, err
	}
	if len(a.Cells) == 0 && len(a.Sweeps) == 0 {
		return nil, nil, errors.New("analysis: no selected rows and no sweep in the results")
	}
	a.SeedSpreads = SeedSpreads(recs, opts.MethodBase, opts.Stochastic)
	a.Protocols = ProtocolsOf(a.Cells)
	a.Study.Datasets = studyDatasets(recs, opts.Datasets, short)
	a.Study.Name, a.Study.Title = studyTitle(a, opts.Name, opts.Command)
	a.Methods = methodList(recs, opts.Methods, opts.MethodBase)
	if opts.Reference != "" && !hasMethod(a.Methods, opts.Reference) {
		return nil, nil, fmt.Errorf("analysis: --reference %s is not a method of these results (methods: %s)", opts.Reference, labels(a.Methods))
	}
	if a.Tests, err = protocolTests(a, recs, opts, rope); err != nil {
		return nil, nil, err
	}
	a.Headline = headlineProtocol(a.Protocols)
	if a.Rankings, err = computeRankings(a); err != nil {
		return nil, nil, err
	}
	a.summarise(recs)
	return a, recs, nil
}

// ropeOf is the ROPE of the Bayesian tests: the option, or
// stats.DefaultRope when it is zero.
func ropeOf(opts Options) (float64, error) {
	rope := opts.Rope
	if rope == 0 {
		rope = stats.DefaultRope
	}
	if !(rope > 0) || rope >= 1 || math.IsInf(rope, 0) {
		return 0, fmt.Errorf("analysis: ROPE %v must be in (0, 1) (a fraction of accuracy)", opts.Rope)
	}
	return rope, nil
}

// protocolTests runs the statistical comparison of each protocol.
func protocolTests(a *Analysis, recs []results.Record, opts Options, rope float64) ([]Tests, error) {
	folds := foldScores(recs)
	exact := exactAccuracies(recs)
	bayes := stats.DefaultSignedRankOptions()
	bayes.Rope = rope
	if opts.Samples > 0 {
		bayes.Samples = opts.Samples
	}
	if len(a.Protocols) == 0 {
		return nil, nil // as a study without protocols always read: no tests
	}
	sigs := foldSignatures(recs)
	out := make([]Tests, len(a.Protocols))
	errs := make([]error, len(a.Protocols))
	budget := par.NewBudget(opts.Threads)
	budget.Do(func() {
		budget.For(len(a.Protocols), func(i int) {
			out[i], errs[i] = computeTests(a.Cells, a.Protocols[i], opts, bayes, folds, exact, sigs)
		})
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// summarise computes what the views show beside the tests: the fronts,
// the cells at chance, the means, the complexity, the partition effect
// and the ablations.
func (a *Analysis) summarise(recs []results.Record) {
	for _, p := range pointProtocols(a.Points) {
		if f := ComputeFront(a.Points, p); len(f.Panels) > 0 {
			a.Fronts = append(a.Fronts, f)
		}
	}
	a.Chance = chanceFlags(a.Cells, a.Study.Datasets)
	a.Means = computeMeans(a)
	a.GapMeans = computeGapMeans(a)
	a.Complexity = computeComplexity(a)
	a.Partition = computePartition(a)
	a.Reproduction = computeReproduction(a)
	a.Ablations, a.Warnings = computeAblations(recs, pointProtocols(a.Points))
}

// pointProtocols lists the protocols of points (a sweep-only protocol has
// points but no cells), "paper" first, "clean" second, others sorted.
func pointProtocols(points []Point) []string {
	cells := make([]Cell, len(points))
	for i, p := range points {
		cells[i].Protocol = p.Protocol
	}
	return ProtocolsOf(cells)
}

// titleOf names the study: the spec's name, or the command for reproduce
// (see studyTitle: the paper's title only for the paper's datasets).
func titleOf(name, command string) string {
	switch {
	case name != "" && name != "paper":
		return "Study " + name
	case strings.Contains(" "+command+" ", " reproduce "):
		return "fgrtbench reproduce: the paper's study (A Fast Interpretable Fuzzy Tree Learner)"
	case name != "":
		return "Study " + name
	default:
		return "fgrtbench report"
	}
}

func datasetNames(recs []results.Record, ds []DatasetInput) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, d := range ds {
		add(d.Name)
	}
	for _, r := range recs {
		add(r.Dataset)
	}
	sort.Strings(out)
	return out
}

// ShortNames maps each dataset name to a short unique one: the file's stem
// (a name without a directory or extension stays as it is), prefixed by its
// parent directory where two stems collide, then numbered.
func ShortNames(names []string) map[string]string {
	stem := func(n string) string {
		b := filepath.Base(filepath.ToSlash(n))
		if i := strings.LastIndexByte(b, '.'); i > 0 && strings.ContainsAny(n, "/\\") {
			b = b[:i]
		}
		return b
	}
	out := map[string]string{}
	count := map[string]int{}
	for _, n := range names {
		count[stem(n)]++
	}
	used := map[string]bool{}
	for _, n := range names {
		s := stem(n)
		if count[s] > 1 {
			if dir := filepath.Base(filepath.Dir(n)); dir != "." && dir != "/" {
				s = dir + "-" + s
			}
		}
		base := s
		for i := 2; used[s]; i++ {
			s = fmt.Sprintf("%s-%d", base, i)
		}
		used[s] = true
		out[n] = s
	}
	return out
}

func renamed(recs []results.Record, short map[string]string) []results.Record {
	same := true
	for _, r := range recs {
		if short[r.Dataset] != r.Dataset {
			same = false
			break
		}
	}
	if same {
		return recs
	}
	out := make([]results.Record, len(recs))
	for i, r := range recs {
		r.Dataset = short[r.Dataset]
		out[i] = r
	}
	return out
}

func studyDatasets(recs []results.Record, in []DatasetInput, short map[string]string) []Dataset {
	byShort := map[string]Dataset{}
	for _, d := range in {
		s := Dataset{Name: short[d.Name], SHA256: d.SHA256, Rows: d.Rows, Classes: d.Classes, ClassCounts: d.ClassCounts,
			RowsUsed: d.RowsUsed, ClassCountsUsed: d.ClassCountsUsed, MajorityRate: math.NaN(),
			Features: d.Features, NominalFeatures: d.NominalFeatures, MissingRows: d.MissingRows, CellsImputed: d.CellsImputed}
		counts := d.ClassCounts
		if len(d.ClassCountsUsed) > 0 {
			counts = d.ClassCountsUsed
		}
		total, most := 0, 0
		for _, c := range counts {
			total += c
			most = max(most, c)
		}
		if total > 0 {
			s.MajorityRate = float64(most) / float64(total)
		}
		byShort[s.Name] = s
	}
	for _, r := range recs {
		if _, ok := byShort[r.Dataset]; !ok {
			byShort[r.Dataset] = Dataset{Name: r.Dataset, MajorityRate: math.NaN()}
		}
	}
	names := make([]string, 0, len(byShort))
	for n := range byShort {
		names = append(names, n)
	}
	SortDatasets(names)
	out := make([]Dataset, len(names))
	for i, n := range names {
		out[i] = byShort[n]
	}
	return out
}

func methodList(recs []results.Record, pres results.Presentation, base map[string]string) []Method {
	seen := map[string]bool{}
	var ls []string
	for _, r := range recs {
		if !seen[r.Method] {
			seen[r.Method] = true
			ls = append(ls, r.Method)
		}
	}
	pres.Sort(ls)
	out := make([]Method, len(ls))
	for i, l := range ls {
		_, v := results.SplitVariant(l)
		out[i] = Method{Label: l, Display: pres.DisplayName(l), Base: BaseMethod(l, base), Variant: v}
	}
	return out
}

func hasMethod(ms []Method, label string) bool {
	for _, m := range ms {
		if m.Label == label {
			return true
		}
	}
	return false
}

func labels(ms []Method) string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Label
	}
	return strings.Join(out, ", ")
}

// Chance flags a cell whose balanced accuracy does not exceed the
// majority-class baseline's on the same dataset: the method learned
// nothing a constant prediction would not.
type Chance struct {
	Protocol string `json:"protocol"`
	Dataset  string `json:"dataset"`
	Method   string `json:"method"`
	// BalancedAccuracy is the cell's; Baseline the majority baseline's
	// balanced accuracy.
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	Baseline         float64 `json:"baseline"`
	// Source says where the baseline came from: "majority" (the study's
	// majority rows) or "class counts" (1/classes, from the manifest).
	Source string `json:"source"`
}

// MajorityMethod is the label of the majority-class baseline learner.
const MajorityMethod = "majority"

func chanceFlags(cells []Cell, ds []Dataset) []Chance {
	type pd struct{ protocol, dataset string }
	base := map[pd]float64{}
	for _, c := range cells {
		if BaseMethod(c.Method, nil) == MajorityMethod {
			base[pd{c.Protocol, c.Dataset}] = c.BalancedAccuracy
		}
	}
	classes := map[string]int{}
	for _, d := range ds {
		n := 0
		counts := d.ClassCounts
		if len(d.ClassCountsUsed) > 0 {
			counts = d.ClassCountsUsed
		}
		for _, c := range counts {
			if c > 0 {
				n++
			}
		}
		classes[d.Name] = n
	}
	var out []Chance
	for _, c := range cells {
		if BaseMethod(c.Method, nil) == MajorityMethod {
			continue
		}
		b, ok := base[pd{c.Protocol, c.Dataset}]
		src := "majority"
		if !ok {
			if k := classes[c.Dataset]; k > 0 {
				b, ok, src = 1/float64(k), true, "class counts"
			}
		}
		if ok && c.BalancedAccuracy <= b+1e-9 {
			out = append(out, Chance{Protocol: c.Protocol, Dataset: c.Dataset, Method: c.Method, BalancedAccuracy: c.BalancedAccuracy, Baseline: b, Source: src})
		}
	}
	return out
}

// FormatP renders a p-value as every view prints it: four decimals, or
// "< 0.0001" below that; "n/a" for a test that does not apply (NaN).
func FormatP(p float64) string {
	if math.IsNaN(p) {
		return "n/a"
	}
	if p < 0.0001 {
		return "< 0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}
