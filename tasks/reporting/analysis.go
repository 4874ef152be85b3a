package reporting

import (
	"slices"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

// analyse computes the analysis of a study's results with what its
// manifest (nil when absent) says: the study's name, command, datasets,
// method names, order and bases, and the stochastic methods.
func analyse(recs []results.Record, m *manifest.Manifest, partial string, o Options, load func() (*analysis.Artifacts, error)) (*analysis.Analysis, error) {
	ao := analysis.Options{Partial: partial, Methods: Presentation(m, recordLabels(recs)), Stochastic: Stochastic(m),
		Reference: o.Reference, Rope: o.Rope, LoadArtifacts: load, KeepDuplicates: o.KeepDuplicates, Threads: o.Threads}
	labels := recordLabels(recs)
	if m != nil {
		ao.MethodBase = MethodBases(m)
		ao.Command = safeCommand(m.Command)
		if st, err := study.FromManifest(m); err == nil {
			ao.Name = st.Name
			if ao.Reference == "" {
				ao.Reference = defaultReference(st, labels)
			}
			if !o.RankBaselines {
				ao.Baselines = baselines(st, labels)
			}
		}
		for _, d := range m.Datasets {
			ao.Datasets = append(ao.Datasets, datasetInput(d))
		}
	}
	return analysis.Compute(recs, ao)
}

// PaperReference is the control method of the paper's own study
// (reproduce): its post-hoc comparisons are FGRT against the others.
const PaperReference = "fgrt"

// defaultReference is the study's reference: its spec's reference:, else
// FGRT for the paper's study (spec.Paper names it "paper") when its
// results have FGRT, else none (every pair).
func defaultReference(st study.Study, labels []string) string {
	if st.Reference != "" && slices.Contains(labels, st.Reference) {
		return st.Reference
	}
	if st.Name == "paper" && slices.Contains(labels, PaperReference) {
		return PaperReference
	}
	return ""
}

// baselines are the labels the tests leave out of the ranking: the
// majority-class baseline's and those a spec declares baseline: true.
func baselines(st study.Study, labels []string) []string {
	var out []string
	for _, ms := range st.Methods {
		l := ms.ResultLabel()
		if (ms.Baseline || ms.Name == "majority") && slices.Contains(labels, l) {
			out = append(out, l)
		}
	}
	return out
}

// datasetInput is what the analysis reads of a manifest's dataset record.
func datasetInput(d manifest.Dataset) analysis.DatasetInput {
	in := analysis.DatasetInput{Name: d.Name, SHA256: d.NormalizedSHA256, Rows: d.Rows, Classes: d.Classes, ClassCounts: d.ClassCounts,
		Features: d.Features, NominalFeatures: d.NominalFeatures, MissingRows: d.MissingRows}
	for _, u := range d.Use {
		in.CellsImputed = max(in.CellsImputed, u.CellsImputed)
	}
	in.RowsUsed, in.ClassCountsUsed = rowsUsed(d)
	return in
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

// datasetRows describes the datasets the results cover, from the registry's
// verified shapes (every file is checked against them when loaded), named
// as the analysis names them; a data file of the user's own has no row.
func datasetRows(a *analysis.Analysis) ([]reports.DatasetInfo, error) {
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
			return nil, err
		}
		// Rows used: the complete rows, which every protocol used before
		// the manifest recorded the rows used (it overrides this).
		out = append(out, reports.DatasetInfo{Name: n, Instances: info.Instances - info.MissingRows, FileRows: info.Instances, Features: info.Features,
			Nominal: info.Nominal, Classes: info.Classes, Missing: info.MissingRows, Domain: info.Domain})
	}
	return out, nil
}

// MethodBases maps each method label of the manifest's study to its
// registry method (fgrt-fixed → fgrt), so the report can show a sweep
// beside the selected variants of the same method. A manifest without a
// readable study gives no map (labels then stand for themselves).
func MethodBases(m *manifest.Manifest) map[string]string {
	st, err := study.FromManifest(m)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, ms := range st.Methods {
		out[ms.ResultLabel()] = ms.Name
	}
	return out
}

// Presentation says how the views name and order the method labels of
// results: as the manifest's method entries record (written by the runner
// from the registry). Results without a manifest, or with one written
// before the entries existed, get the registry's current names and order
// for its methods and the labels they hold, which is what such results
// were shown with (the figures of a runtime.csv beside them included).
func Presentation(m *manifest.Manifest, labels []string) results.Presentation {
	if m != nil && len(m.Methods) > 0 {
		return results.PresentationOf(m.Methods)
	}
	p := results.Presentation{Names: map[string]string{}, Order: methods.Names()}
	for _, l := range append(methods.Names(), labels...) {
		base, _ := results.SplitVariant(l)
		p.Names[base] = methods.DisplayName(base)
	}
	return p
}

// recordLabels lists the method labels of records (in any order).
func recordLabels(recs []results.Record) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		if !seen[r.Method] {
			seen[r.Method] = true
			out = append(out, r.Method)
		}
	}
	return out
}

// Stochastic lists the registry methods whose results depend on their
// seed: from the manifest's method entries (m may be nil), else from the
// registry.
func Stochastic(m *manifest.Manifest) map[string]bool {
	out := map[string]bool{}
	if m != nil && len(m.Methods) > 0 {
		for _, e := range m.Methods {
			if e.Stochastic {
				out[e.Method] = true
			}
		}
		return out
	}
	for _, n := range methods.Names() {
		if mm, err := methods.Lookup(n); err == nil && mm.Stochastic {
			out[n] = true
		}
	}
	return out
}
