package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/plots"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

func init() { register(reportCommand) }

func reportCommand() *Command {
	c := &Command{Name: "report", Short: "render tables, statistics, figures and REPORT.md from stored results", UsageLine: "[--results DIR]",
		Long: `Report renders the report/ directory of a results directory (tables as
Markdown, LaTeX and CSV, statistics, figures and REPORT.md) from its
results.csv and manifest.json. run and reproduce do this when they finish;
run report after merge, or to render again.`}
	fs := &c.Flag
	var df dataFlags
	df.add(fs)
	dir := fs.String("results", "out", "run directory holding results.csv (and manifest.json)")
	var ro reportOptions
	fs.StringVar(&ro.reference, "reference", "", "compare every method with this method label only (default: every pair), Holm-corrected")
	fs.Float64Var(&ro.rope, "rope", stats.DefaultRope, "half-width of the region of practical equivalence of the Bayesian tests, as a fraction of accuracy (0.01 = 1 percentage point)")
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		if !(ro.rope > 0 && ro.rope < 1) {
			return fmt.Errorf("--rope %v: must be a fraction of accuracy in (0, 1), e.g. 0.01 for one percentage point", ro.rope)
		}
		path, a, err := renderReportWith(ctx, env, *dir, &df, ro)
		if err != nil {
			return err
		}
		writeHeadline(env.Stdout, a, path)
		return nil
	}
	return c
}

// reportOptions are the report command's statistics options.
type reportOptions struct {
	reference string
	rope      float64
	// loadArtifacts, when set, reads the directory's stored predictions
	// and models (confusion matrices, AUC, log-loss, rule stability).
	loadArtifacts func() (*analysis.Artifacts, error)
}

// renderReport writes DIR/report from DIR/results.csv (and the manifest,
// when present) and returns the path of REPORT.md and the analysis every
// view of it rendered (the terminal's headline renders it too).
func renderReport(ctx context.Context, env *Env, dir string, df *dataFlags) (string, *analysis.Analysis, error) {
	return renderReportWith(ctx, env, dir, df, reportOptions{})
}

// renderReportWith is renderReport with the statistics options: it
// computes the analysis once and renders every view (figures, tables,
// REPORT.md, analysis.json) from it.
func renderReportWith(ctx context.Context, env *Env, dir string, df *dataFlags, ro reportOptions) (string, *analysis.Analysis, error) {
	if err := reports.CheckDirs(dir); err != nil {
		return "", nil, err
	}
	defer artifactsGC(dir)()
	recs, err := results.ReadFile(filepath.Join(dir, runner.ResultsFile))
	if err != nil {
		return "", nil, err
	}
	opts := reports.Options{Dir: dir}
	var partial string
	m, err := manifest.Read(dir)
	if err == nil {
		if err := onlyStudyRows(dir, m, recs); err != nil {
			return "", nil, err
		}
		partial = partialNote(m, recs)
		opts.Facts = manifestFacts(m, partial)
		if partial != "" {
			fmt.Fprintf(env.Stderr, "fgrtbench report: %s holds %s; the report says so\n", dir, partial)
		}
	} else {
		// The reason without the directory's path: no output names one.
		why := "no manifest.json beside results.csv"
		if !errors.Is(err, fs.ErrNotExist) {
			why = "unreadable: " + strings.ReplaceAll(err.Error(), dir, "<results>")
		}
		opts.Facts = []reports.Fact{{Key: "manifest", Value: "absent (" + why + ")"}}
		// Without its manifest, a partial merge's results.csv still says
		// so in its first line.
		if note := partialMark(filepath.Join(dir, runner.ResultsFile)); note != "" {
			partial = note + " (the mark in results.csv; its manifest.json is absent)"
			opts.Facts = append([]reports.Fact{partialFact(partial)}, opts.Facts...)
			fmt.Fprintf(env.Stderr, "fgrtbench report: %s holds %s; the report says so\n", dir, partial)
		}
	}
	if err != nil {
		m = nil
	}
	// Every reader re-derives n_test, correct and rules from the
	// artifacts: a directory where they disagree with results.csv is
	// refused, not reported. The analysis reads them while it computes
	// its tests, and returns their error first.
	var art storedArtifacts
	ro.loadArtifacts = func() (*analysis.Artifacts, error) {
		var err error
		if art, err = readArtifacts(dir, recs); err != nil || !art.present {
			return nil, err
		}
		return &analysis.Artifacts{Predictions: art.predictions, Models: art.models}, nil
	}
	a, err := studyAnalysis(recs, m, partial, ro)
	if err != nil {
		return "", nil, err
	}
	opts.Facts = append(opts.Facts, art.fact())
	opts.Analysis = a
	for _, w := range a.Warnings {
		fmt.Fprintf(env.Stderr, "fgrtbench report: %s\n", w)
	}
	opts.Datasets = datasetRows(a)
	figs, err := renderFigures(dir, recs, a)
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) || owned.IsRefusal(err) {
		// A write error (a full disk), or a file of the user's in the way
		// of a figure: stop here, with one message.
		return "", nil, err
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench report: figures: %v\n", err)
		opts.FiguresError = err.Error()
	}
	opts.Figures = figs
	rep, err := renderReportFiles(opts, m)
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(rep.Dir, "REPORT.md"), a, nil
}

// onlyStudyRows refuses results that hold rows of none of the units of the
// study dir's manifest records (rows appended from another run), which a
// report or figure would show as this study's. Manifests older than the
// study identity cannot tell, and pass.
func onlyStudyRows(dir string, m *manifest.Manifest, recs []results.Record) error {
	if m.Identity == nil {
		// Without it neither foreign rows nor a partial study can be told.
		return fmt.Errorf("%s records no study identity (the block was removed, or an fgrtbench older than identities wrote it), so whose rows %s holds cannot be checked; re-run the study into a new --out", filepath.Join(dir, manifest.FileName), filepath.Join(dir, runner.ResultsFile))
	}
	// The check resume and merge apply: a manifest either would refuse
	// (an edited method version or dataset checksum) is not reported.
	if err := m.Verify(dir); err != nil {
		return err
	}
	if reason := outdir.ForeignRow(filepath.Join(dir, runner.ResultsFile), *m.Identity, recs); reason != "" {
		return fmt.Errorf("%s; the study is the one %s records, and results of two studies are not shown as one", reason, filepath.Join(dir, manifest.FileName))
	}
	if err := outdir.CheckSelected(*m.Identity, recs, filepath.Join(dir, runner.ResultsFile)); err != nil {
		return err
	}
	return nil
}

// partialMark returns what a results file's partial mark (its first line,
// written by merge --allow-partial) says, without the pointer to the
// manifest; "" when it has none.
func partialMark(path string) string {
	f, err := safefile.Open(path, safefile.ResultsCap)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	note, ok := strings.CutPrefix(strings.TrimSpace(line), results.PartialMark)
	if !ok {
		return ""
	}
	note, _, _ = strings.Cut(strings.TrimSpace(note), "; see ")
	return note
}

// studyAnalysis computes the analysis of a study's results with what its
// manifest (nil when absent) says: the study's name, command, datasets,
// method names, order and bases, and the stochastic methods.
func studyAnalysis(recs []results.Record, m *manifest.Manifest, partial string, ro reportOptions) (*analysis.Analysis, error) {
	ao := analysis.Options{Partial: partial, Methods: presentationOf(m, recordLabels(recs)), Stochastic: stochasticOf(m),
		Reference: ro.reference, Rope: ro.rope, LoadArtifacts: ro.loadArtifacts}
	if m != nil {
		ao.MethodBase = methodBases(m)
		ao.Command = safeCommand(m.Command)
		if st, err := manifestStudy(m); err == nil {
			ao.Name = st.Name
		}
		for _, d := range m.Datasets {
			in := analysis.DatasetInput{Name: d.Name, SHA256: d.NormalizedSHA256, Rows: d.Rows, Classes: d.Classes, ClassCounts: d.ClassCounts,
				Features: d.Features, NominalFeatures: d.NominalFeatures, MissingRows: d.MissingRows}
			for _, u := range d.Use {
				in.CellsImputed = max(in.CellsImputed, u.CellsImputed)
			}
			in.RowsUsed, in.ClassCountsUsed = rowsUsed(d)
			ao.Datasets = append(ao.Datasets, in)
		}
	}
	return analysis.Compute(recs, ao)
}

// rowsUsed returns the rows the protocols of a manifest's dataset record
// used and their class counts, when every protocol used the same rows (0
// and nil otherwise, or when the manifest predates the record).
func rowsUsed(d manifest.Dataset) (int, []int) {
	if len(d.Use) == 0 {
		return 0, nil
	}
	first := d.Use[0]
	for _, u := range d.Use[1:] {
		if u.RowsUsed != first.RowsUsed || !slices.Equal(u.ClassCounts, first.ClassCounts) {
			return 0, nil
		}
	}
	return first.RowsUsed, first.ClassCounts
}

// safeCommand joins a command line with every argument that names a path
// reduced to its last element, so that no path of the machine that ran the
// study reaches a report.
func safeCommand(cmd []string) string {
	out := make([]string, len(cmd))
	for i, a := range cmd {
		flag, val, isFlag := strings.Cut(a, "=")
		if !isFlag || !strings.HasPrefix(flag, "-") {
			flag, val = "", a
		}
		if strings.ContainsAny(val, "/\\") {
			val = filepath.Base(val)
		}
		if flag != "" {
			val = flag + "=" + val
		}
		out[i] = val
	}
	return strings.Join(out, " ")
}

// datasetRows describes the datasets the results cover, from the registry's
// verified shapes (every file is checked against them when loaded), named
// as the analysis names them.
func datasetRows(a *analysis.Analysis) []reports.DatasetInfo {
	seen := map[string]bool{}
	for _, d := range a.Study.Datasets {
		seen[d.Name] = true
	}
	var out []reports.DatasetInfo
	for _, n := range datasets.Names() {
		if !seen[n] {
			continue
		}
		info, err := datasets.Lookup(n)
		if err != nil {
			continue
		}
		// Rows used: the complete rows, which every protocol used before
		// the manifest recorded the rows used (it overrides this).
		out = append(out, reports.DatasetInfo{Name: n, Instances: info.Instances - info.MissingRows, FileRows: info.Instances, Features: info.Features,
			Nominal: info.Nominal, Classes: info.Classes, Missing: info.MissingRows, Domain: info.Domain})
	}
	return out
}

// partialNote says how results fall short of their manifest's study ("" when
// they hold every unit): a shard, a partial merge, failed or interrupted
// units.
func partialNote(m *manifest.Manifest, recs []results.Record) string {
	var note string
	switch {
	case m.Identity != nil:
		missing := outdir.Missing(*m.Identity, recs)
		if len(missing) == 0 {
			return ""
		}
		note = fmt.Sprintf("%d of the study's %d units", m.Identity.Units-len(missing), m.Identity.Units)
	case m.Shard == "" || m.Shard == "all":
		return "" // an older manifest without identity: nothing to compare with
	}
	switch {
	case m.Partial != nil && len(m.Partial.MissingShards) > 0:
		note += ", merged without shard " + strings.Join(m.Partial.MissingShards, ", ")
	case m.Shard != "" && m.Shard != "all" && m.Shard != "merged":
		note += fmt.Sprintf(" (shard %s; merge every shard and report the merged directory)", m.Shard)
	}
	return strings.TrimPrefix(note, ", ")
}

// partialFact is the run-facts row of results that miss part of their study.
func partialFact(partial string) reports.Fact {
	return reports.Fact{Key: "PARTIAL", Value: "these results hold " + partial + ", not the whole study"}
}

func manifestFacts(m *manifest.Manifest, partial string) []reports.Fact {
	var facts []reports.Fact
	if partial != "" {
		facts = append(facts, partialFact(partial))
	}
	facts = append(facts, []reports.Fact{
		{Key: "tool", Value: fmt.Sprintf("%s %s (%s)", m.Module, m.Version, revision(m))},
		{Key: "go", Value: fmt.Sprintf("%s %s/%s, %d CPUs, -j %d", m.GoVersion, m.GOOS, m.GOARCH, m.NumCPU, m.Jobs)},
		{Key: "command", Value: safeCommand(m.Command)},
		{Key: "run", Value: fmt.Sprintf("%s to %s; %d units (%d run, %d resumed, %d failed), shard %s",
			m.Start.Format("2006-01-02 15:04:05Z"), m.End.Format("15:04:05Z"), m.Units, m.Ran, m.Skipped, m.Failed, m.Shard)},
	}...)
	if m.Memory != nil {
		facts = append(facts, reports.Fact{Key: "memory", Value: memoryFact(m.Memory)})
	}
	if m.Identity != nil {
		facts = append(facts, reports.Fact{Key: "study identity", Value: fmt.Sprintf("%s (%d units in %d groups; each results.csv key carries its group's hash)", m.Identity.Hash, m.Identity.Units, len(m.Identity.Groups))})
	}
	if n := len(m.History); n > 1 {
		facts = append(facts, reports.Fact{Key: "history", Value: fmt.Sprintf("%d invocations wrote these results, the first at %s (listed in manifest.json)", n, m.History[0].Start.Format("2006-01-02 15:04:05Z"))})
	}
	return facts
}

func revision(m *manifest.Manifest) string {
	if m.VCSRevision == "" {
		return "no VCS revision"
	}
	r := m.VCSRevision
	if len(r) > 12 {
		r = r[:12]
	}
	if m.VCSModified {
		r += ", modified"
	}
	return "revision " + r
}

// renderFigures draws the figures the results support into
// DIR/report/figures; paths come back relative to DIR/report.
func renderFigures(dir string, recs []results.Record, a *analysis.Analysis) ([]reports.Figure, error) {
	figs, err := plots.RenderAll(dir, filepath.Join(dir, "report", "figures"), plots.RenderOptions{Analysis: a})
	out := make([]reports.Figure, 0, len(figs))
	for _, f := range figs {
		out = append(out, reports.Figure{Path: filepath.Join("report", f.Path), Caption: f.Caption})
	}
	return out, err
}

// methodBases maps each method label of the manifest's study to its
// registry method (fgrt-fixed → fgrt), so the report can show a sweep
// beside the selected variants of the same method. A manifest without a
// readable study gives no map (labels then stand for themselves).
func methodBases(m *manifest.Manifest) map[string]string {
	study, err := manifestStudy(m)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, ms := range study.Methods {
		out[ms.ResultLabel()] = ms.Name
	}
	return out
}
