package reports

import (
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// fixtureRecords is a small hand-made results set: two protocols, four
// datasets (three of the paper's and one that is not), six methods plus a
// variant, three folds, with unselected grid rows mixed in. Accuracies are
// chosen by hand so that tables have ties, bests, gaps and both exact
// matches and mismatches against the authors' committed means.
func fixtureRecords() []results.Record {
	type spec struct {
		protocol, dataset, method, selection string
		accs                                 []float64
		rules, ants, leaves, internal        int
	}
	// Two folds of cart/wine (paper) equal the authors' mean, so that cell
	// reproduces exactly; fgrt/wine is off by design.
	specs := []spec{
		{"paper", "wine", "fgrt", "test", []float64{0.95, 0.9, 1}, 6, 9, 6, 4},
		{"paper", "wine", "fgrt-opt", "test", []float64{1, 0.95, 0.95}, 5, 7, 5, 2},
		{"paper", "wine", "cart", "fixed", []float64{0.8987301587301587, 0.8987301587301587}, 8, 20, 8, 7},
		{"paper", "wine", "c45-entropy", "fixed", []float64{0.9, 0.9, 0.85}, 7, 18, 7, 6},
		{"paper", "wine", "ripper", "fixed", []float64{0.85, 0.9, 0.8}, 4, 6, 4, 0},
		{"paper", "wine", "cart@text", "fixed", []float64{0.8, 0.85, 0.9}, 9, 22, 9, 8},
		{"paper", "zoo", "fgrt", "test", []float64{0.75, 0.8, 0.8}, 10, 12, 10, 3},
		{"paper", "zoo", "fgrt-opt", "test", []float64{0.75, 0.8, 0.8}, 10, 12, 10, 3},
		{"paper", "zoo", "cart", "fixed", []float64{0.95, 0.9, 1}, 8, 25, 8, 7},
		{"paper", "zoo", "c45-entropy", "fixed", []float64{0.95, 0.95, 0.9}, 8, 24, 8, 7},
		{"paper", "zoo", "ripper", "fixed", []float64{0.85, 0.8, 0.85}, 5, 8, 5, 0},
		{"paper", "zoo", "cart@text", "fixed", []float64{0.9, 0.9, 0.95}, 8, 25, 8, 7},
		{"paper", "pima", "fgrt", "test", []float64{0.65, 0.66, 0.64}, 5, 5, 5, 2},
		{"paper", "pima", "fgrt-opt", "test", []float64{0.66, 0.66, 0.65}, 5, 6, 5, 3},
		{"paper", "pima", "cart", "fixed", []float64{0.7, 0.68, 0.69}, 80, 600, 80, 79},
		{"paper", "pima", "c45-entropy", "fixed", []float64{0.7, 0.7, 0.69}, 85, 640, 85, 84},
		{"paper", "pima", "ripper", "fixed", []float64{0.71, 0.7, 0.69}, 12, 30, 12, 0},
		{"paper", "pima", "cart@text", "fixed", []float64{0.7, 0.69, 0.69}, 70, 500, 70, 69},
		{"paper", "iris", "fgrt", "test", []float64{0.94, 0.96, 0.95}, 4, 5, 4, 2},
		{"paper", "iris", "fgrt-opt", "test", []float64{0.96, 0.96, 0.95}, 4, 5, 4, 2},
		{"paper", "iris", "cart", "fixed", []float64{0.94, 0.94, 0.96}, 6, 15, 6, 5},
		{"paper", "iris", "c45-entropy", "fixed", []float64{0.94, 0.96, 0.96}, 6, 14, 6, 5},
		{"paper", "iris", "ripper", "fixed", []float64{0.92, 0.94, 0.94}, 3, 4, 3, 0},
		{"paper", "iris", "cart@text", "fixed", []float64{0.93, 0.95, 0.95}, 6, 15, 6, 5},
		{"clean", "wine", "fgrt", "inner-cv", []float64{0.9, 0.85, 0.95}, 6, 9, 6, 4},
		{"clean", "wine", "fgrt-opt", "inner-cv", []float64{0.9, 0.9, 0.95}, 5, 7, 5, 2},
		{"clean", "wine", "cart", "fixed", []float64{0.9, 0.88, 0.91}, 8, 20, 8, 7},
		{"clean", "zoo", "fgrt", "inner-cv", []float64{0.7, 0.75, 0.8}, 9, 11, 9, 3},
		{"clean", "zoo", "fgrt-opt", "inner-cv", []float64{0.7, 0.7, 0.75}, 9, 11, 9, 3},
		{"clean", "zoo", "cart", "fixed", []float64{0.95, 0.9, 1}, 8, 25, 8, 7},
		{"clean", "pima", "fgrt", "inner-cv", []float64{0.62, 0.63, 0.64}, 5, 5, 5, 2},
		{"clean", "pima", "fgrt-opt", "inner-cv", []float64{0.64, 0.63, 0.64}, 5, 6, 5, 3},
		{"clean", "pima", "cart", "fixed", []float64{0.69, 0.68, 0.69}, 80, 600, 80, 79},
	}
	var recs []results.Record
	for _, s := range specs {
		for fold, acc := range s.accs {
			base := results.Record{
				Protocol: s.protocol, Dataset: s.dataset, Method: s.method, Selection: s.selection,
				Fold: fold, Seed: 42, NTrain: 80, NTest: 20, Correct: int(acc*20 + 0.5), Accuracy: acc, BalancedAccuracy: acc - 0.01,
				Rules: s.rules, Antecedents: s.ants, RulebaseSize: s.ants, Leaves: s.leaves, InternalNodes: s.internal,
				FitSeconds: 0.001 * float64(fold+1), Key: fmt.Sprintf("%s/%s/%s/0/%d", s.protocol, s.dataset, s.method, fold),
			}
			if s.selection == "test" || s.selection == "inner-cv" {
				// A losing grid point beside the selected one: must be ignored.
				lose := base
				lose.Config, lose.ConfigIndex, lose.Accuracy, lose.Rules = "max_rules=5", 0, acc-0.2, 1
				recs = append(recs, lose)
				base.Config, base.ConfigIndex = "max_rules=15", 1
			}
			base.Selected = true
			recs = append(recs, base)
		}
	}
	// A sweep row (never selected) of a method that has no selected rows.
	recs = append(recs, results.Record{Protocol: "paper", Dataset: "wine", Method: "fga", Selection: "sweep", Accuracy: 0.5, Key: "sweep"})
	return recs
}

var fixtureDatasets = []DatasetInfo{
	{Name: "zoo", Instances: 101, FileRows: 101, Features: 16, Nominal: 16, Classes: 7, Missing: 0, Domain: "Biology"},
	{Name: "iris", Instances: 150, FileRows: 150, Features: 4, Nominal: 0, Classes: 3, Missing: 0, Domain: "Botany"},
	{Name: "wine", Instances: 178, FileRows: 178, Features: 13, Nominal: 0, Classes: 3, Missing: 0},
	{Name: "pima", Instances: 768, FileRows: 768, Features: 8, Nominal: 0, Classes: 2, Missing: 0, Domain: "Medical"},
	{Name: "hepatitis", Instances: 80, FileRows: 155, Features: 19, Nominal: 0, Classes: 2, Missing: 75, Domain: "Medical"},
}

var fixtureFacts = []Fact{
	{"command", "fgrtbench run --protocol paper,clean"},
	{"seed", "42"},
	{"git commit", "0000000 (fixture)"},
}

var fixtureFigures = []Figure{
	{Path: "figures/accuracy.svg", Caption: "Accuracy per dataset"},
	{Path: "/abs/elsewhere/cd.png", Caption: "Critical difference diagram"},
}

// paperMethods is the presentation the runner records in a manifest for
// the paper's methods and the fixed FGRT variant (the registry's display
// names and order), given as the manifest's method entries so that the
// golden reports also cover results.PresentationOf.
var paperMethods = results.PresentationOf([]results.Method{
	{Label: "fgrt", Method: "fgrt", DisplayName: "FGRT", Order: 0},
	{Label: "fgrt-opt", Method: "fgrt-opt", DisplayName: "FGRT*", Order: 1},
	{Label: "cart", Method: "cart", DisplayName: "CART", Order: 2},
	{Label: "c45-entropy", Method: "c45-entropy", DisplayName: "C4.5 (entropy, paper)", Order: 3},
	{Label: "c45", Method: "c45", DisplayName: "C4.5 (J48)", Order: 4},
	{Label: "ripper", Method: "ripper", DisplayName: "RIPPER", Order: 5, Stochastic: true},
	{Label: "fga", Method: "fga", DisplayName: "FGA", Order: 6, Stochastic: true},
	{Label: "fgrt-fixed", Method: "fgrt", DisplayName: "FGRT (Q1+Q2 fixed)", Order: -1},
})

// analysisOf computes the analysis of records as the report command does
// before it renders any view: the tests build a report from it, as the
// command does, and no view computes one of its own.
func analysisOf(t testing.TB, recs []results.Record, o analysis.Options) *analysis.Analysis {
	t.Helper()
	a, err := analysis.Compute(recs, o)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
