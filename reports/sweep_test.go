package reports

import (
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// sweepRecords is a synthetic results set of a two-parameter sweep
// (max_rules × coverage_threshold, 3 × 2 points) of "fgrt" under two
// protocols, 3 datasets, 2 repeats × 3 folds, with pseudo-random
// accuracies and sizes; beside it a selected variant "fgrt-fixed"
// (inner-cv, one row per unit) and a fixed "cart". The paper protocol has
// one repeat, as the runner writes it.
func sweepRecords() []results.Record {
	rng := rand.New(rand.NewPCG(3, 4))
	var recs []results.Record
	for _, proto := range []string{"paper", "clean"} {
		repeats := 2
		if proto == "paper" {
			repeats = 1
		}
		for _, ds := range []string{"wine", "pima", "iris"} {
			for r := 0; r < repeats; r++ {
				for f := 0; f < 3; f++ {
					unit := fmt.Sprintf("%s/%s/fgrt/r%d/f%d", proto, ds, r, f)
					idx := 0
					for _, mr := range []string{"5", "10", "40"} {
						for _, cov := range []string{"0", "0.05"} {
							correct := 10 + rng.IntN(11)
							rules := 2 + rng.IntN(30)
							recs = append(recs, results.Record{
								Protocol: proto, Dataset: ds, Method: "fgrt",
								Config:      "coverage_threshold=" + cov + ";fix_q1=false;max_rules=" + mr,
								ConfigIndex: idx, Selection: "sweep", Repeat: r, Fold: f, Seed: 42 + int64(r),
								NTrain: 80, NTest: 20, Correct: correct, Accuracy: float64(correct) / 20,
								BalancedAccuracy: float64(correct-1) / 20, Rules: rules, Antecedents: 2 * rules, RulebaseSize: 2*rules + 1,
								FitSeconds: 0.001 * float64(1+rng.IntN(9)), Key: unit,
							})
							idx++
						}
					}
					for _, m := range []string{"fgrt-fixed", "cart"} {
						correct := 12 + rng.IntN(8)
						sel := "inner-cv"
						if m == "cart" {
							sel = "fixed"
						}
						recs = append(recs, results.Record{
							Protocol: proto, Dataset: ds, Method: m, Config: "max_rules=10", Selected: true, Selection: sel,
							Repeat: r, Fold: f, Seed: 42 + int64(r), NTrain: 80, NTest: 20, Correct: correct, Accuracy: float64(correct) / 20,
							BalancedAccuracy: float64(correct) / 20, Rules: 8, Antecedents: 16, RulebaseSize: 16,
							FitSeconds: 0.002, Key: fmt.Sprintf("%s/%s/%s/r%d/f%d", proto, ds, m, r, f),
						})
					}
				}
			}
		}
	}
	return recs
}

func parseCSVTable(t *testing.T, tb Table) []map[string]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(string(tb.CSV()))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// TestSweepTableMatchesResults recomputes every number of the sweep tables
// from the rows, independently of the aggregation code.
func TestSweepTableMatchesResults(t *testing.T) {
	recs := sweepRecords()
	a := analysisOf(t, recs, analysis.Options{Methods: paperMethods, MethodBase: map[string]string{"fgrt-fixed": "fgrt", "fgrt": "fgrt", "cart": "cart"}})
	rep, err := Build(Options{Dir: t.TempDir(), Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sweeps) != 2 || rep.Sweeps[0].Protocol != "paper" || rep.Sweeps[1].Protocol != "clean" {
		t.Fatalf("sweeps %+v", rep.Sweeps)
	}
	for _, s := range rep.Sweeps {
		if strings.Join(s.Params, ",") != "coverage_threshold,max_rules" || len(s.Configs) != 6 {
			t.Errorf("%s: params %v, %d configs", s.Protocol, s.Params, len(s.Configs))
		}
	}
	tables := map[string]Table{}
	for _, tb := range rep.Tables {
		tables[tb.Name] = tb
	}
	for _, proto := range []string{"paper", "clean"} {
		tb, ok := tables["sweep-"+proto+"-fgrt"]
		if !ok {
			t.Fatalf("no sweep table for %s", proto)
		}
		if !strings.Contains(string(rep.Markdown), "(sweeps/"+tb.Name+".md)") || tb.Dir != "sweeps" {
			t.Errorf("REPORT.md lacks a link to %s", tb.Title)
		}
		rows := parseCSVTable(t, tb)
		// Expected per (dataset, config): mean and population std of the rows.
		type acc struct{ vals, bal, size []float64 }
		want := map[[2]string]*acc{}
		for _, r := range recs {
			if r.Protocol != proto || r.Method != "fgrt" {
				continue
			}
			k := [2]string{r.Dataset, r.Config}
			if want[k] == nil {
				want[k] = &acc{}
			}
			want[k].vals = append(want[k].vals, r.Accuracy)
			want[k].bal = append(want[k].bal, r.BalancedAccuracy)
			want[k].size = append(want[k].size, float64(r.RulebaseSize))
		}
		meanPop := func(v []float64) (float64, float64) {
			var m, ss float64
			for _, x := range v {
				m += x
			}
			m /= float64(len(v))
			for _, x := range v {
				ss += (x - m) * (x - m)
			}
			return m, math.Sqrt(ss / float64(len(v)))
		}
		seen, pooled, selected := 0, 0, 0
		bestAcc := map[string]float64{}
		for k, a := range want {
			m, _ := meanPop(a.vals)
			bestAcc[k[0]] = math.Max(bestAcc[k[0]], m)
		}
		pooledAcc := map[string]float64{}
		for _, row := range rows {
			switch {
			case row["dataset"] == "pooled":
				pooled++
				pooledAcc[row["config"]] = num(t, row["accuracy_mean"])
				continue
			case strings.HasPrefix(row["point"], "selected: "):
				selected++
				if row["method"] != "fgrt-fixed" && row["method"] != "fgrt" {
					t.Errorf("selected row of %s beside the fgrt sweep", row["method"])
				}
				continue
			}
			seen++
			a := want[[2]string{row["dataset"], row["config"]}]
			if a == nil {
				t.Fatalf("table row %v matches no results rows", row)
			}
			m, sd := meanPop(a.vals)
			bm, bsd := meanPop(a.bal)
			sm, _ := meanPop(a.size)
			for _, c := range []struct {
				col  string
				want float64
			}{{"accuracy_mean", m * 100}, {"accuracy_std", sd * 100}, {"balanced_accuracy_mean", bm * 100}, {"balanced_accuracy_std", bsd * 100}, {"rulebase_size_mean", sm}} {
				if got := num(t, row[c.col]); math.Abs(got-c.want) > 1e-6 {
					t.Errorf("%s %s %s: %s = %v, want %v", proto, row["dataset"], row["point"], c.col, got, c.want)
				}
			}
			if n, _ := strconv.Atoi(row["n"]); n != len(a.vals) {
				t.Errorf("%s %s %s: n %d, want %d", proto, row["dataset"], row["point"], n, len(a.vals))
			}
			if isBest := math.Abs(m-bestAcc[row["dataset"]]) <= 1e-12; (row["best"] == "true") != isBest {
				t.Errorf("%s %s %s: best=%s, want %v", proto, row["dataset"], row["point"], row["best"], isBest)
			}
		}
		if seen != len(want) || pooled != 6 || selected != 3 {
			t.Errorf("%s: %d point rows (want %d), %d pooled (want 6), %d selected (want 3)", proto, seen, len(want), pooled, selected)
		}
		// Pooled accuracy = mean over datasets of the dataset means.
		for cfg, got := range pooledAcc {
			var sum float64
			for _, ds := range []string{"wine", "pima", "iris"} {
				m, _ := meanPop(want[[2]string{ds, cfg}].vals)
				sum += m
			}
			if math.Abs(got-sum/3*100) > 1e-6 {
				t.Errorf("%s pooled %s: %v, want %v", proto, cfg, got, sum/3*100)
			}
		}
	}
}

// TestSweepRanks checks ranks with ties and a missing point.
func TestSweepRanks(t *testing.T) {
	s := analysis.Sweep{Datasets: []string{"a", "b"}, Configs: []string{"x", "y", "z"}, Points: [][]analysis.Point{
		{{N: 1, Accuracy: 0.9}, {N: 1, Accuracy: 0.9}, {N: 1, Accuracy: 0.5}},
		{{N: 1, Accuracy: 0.7}, {N: 1, Accuracy: 0.8}, {}},
	}}
	per, mean := s.Ranks()
	if per[0][0] != 1.5 || per[0][1] != 1.5 || per[0][2] != 3 || per[1][0] != 2 || per[1][1] != 1 || !math.IsNaN(per[1][2]) {
		t.Errorf("ranks %v", per)
	}
	if mean[0] != 1.75 || mean[1] != 1.25 || !math.IsNaN(mean[2]) {
		t.Errorf("mean ranks %v", mean)
	}
	if b := s.Best(); b[0] != 0 || b[1] != 1 {
		t.Errorf("best %v", b)
	}
	if s.PooledBest() != 1 {
		t.Errorf("pooled best %d", s.PooledBest())
	}
}

func TestPointsRejectDuplicatesAndKeepInnerCVOut(t *testing.T) {
	recs := sweepRecords()
	pts, err := analysis.Points(recs)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, p := range pts {
		kinds[fmt.Sprintf("%s/%v", p.Method, p.Swept)]++
	}
	// fgrt: 6 configs × 3 datasets × 2 protocols; fgrt-fixed and cart
	// (one row per unit): selected points only.
	if kinds["fgrt/true"] != 36 || kinds["fgrt-fixed/true"] != 0 || kinds["fgrt-fixed/false"] != 6 || kinds["cart/false"] != 6 || kinds["fgrt/false"] != 0 {
		t.Errorf("points by kind %v", kinds)
	}
	dup := append(recs, recs[0])
	if _, err := analysis.Points(dup); err == nil || !strings.Contains(err.Error(), "two rows of configuration") {
		t.Errorf("duplicate sweep row: %v", err)
	}
}

func TestSweepOnlyResultsReport(t *testing.T) {
	var recs []results.Record
	for _, r := range sweepRecords() {
		if r.Method == "fgrt" && r.Protocol == "clean" {
			recs = append(recs, r)
		}
	}
	rep, err := Build(Options{Dir: t.TempDir(), Analysis: analysisOf(t, recs, analysis.Options{Methods: paperMethods})})
	if err != nil {
		t.Fatalf("a results file holding only a sweep: %v", err)
	}
	if len(rep.Sweeps) != 1 || !strings.Contains(string(rep.Markdown), "## Hyperparameter sweeps") {
		t.Errorf("no sweep section")
	}
	// Shuffled input renders the same.
	shuffled := append([]results.Record(nil), recs...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	rep2, err := Build(Options{Dir: t.TempDir(), Analysis: analysisOf(t, shuffled, analysis.Options{Methods: paperMethods})})
	if err != nil {
		t.Fatal(err)
	}
	if string(rep.Markdown) != string(rep2.Markdown) {
		t.Error("REPORT.md depends on the order of the rows")
	}
	var names []string
	for _, tb := range rep.Tables {
		names = append(names, tb.Name)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "datasets,sweep-clean-fgrt" {
		t.Errorf("tables %v", names)
	}
}

func TestSweepValuesTextSortsNumbers(t *testing.T) {
	s := analysis.Sweep{Params: []string{"max_rules", "partition"}, Configs: []string{"a", "b", "c", "d"},
		Values: [][]string{{"15", "quantile"}, {"5", "paper"}, {"30", "quantile"}, {"25", "paper"}}}
	if got, want := sweepValuesText(s), "max_rules ∈ {5, 15, 25, 30}, partition ∈ {quantile, paper}"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func BenchmarkPointsAndSweeps(b *testing.B) {
	recs := sweepRecords()
	for i := 0; i < 4; i++ { // 16 copies, 3,456 rows
		recs = append(recs, recs...)
	}
	// Distinct keys per copy, so that the rows stay one per unit and config.
	for i := range recs {
		recs[i].Repeat += 10 * (i / (len(recs) / 16))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pts, err := analysis.Points(recs)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := analysis.Sweeps(pts, nil, paperMethods); err != nil {
			b.Fatal(err)
		}
	}
}
