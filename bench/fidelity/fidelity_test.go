package fidelity

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// authorsRow is one row of fuzzy_cart_ablation_all_configs.csv.
type authorsRow struct {
	dataset                    string
	maxRules                   int
	coverage, minImp, accuracy float64
	leaves, internal           int
}

func readAblation(t *testing.T) []authorsRow {
	rows := sharedtest.ReadCSV(t, "reference/authors-results/fuzzy_cart_ablation_all_configs.csv")
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var out []authorsRow
	for _, r := range rows[1:] {
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(r[col[name]], 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return v
		}
		out = append(out, authorsRow{
			dataset: r[col["Dataset"]], maxRules: int(num("Max_Rules")), coverage: num("Coverage_Threshold"),
			minImp: num("Min_Improvement"), accuracy: num("Accuracy"),
			leaves: int(num("N_Rules")), internal: int(num("N_Unique_Conditions")),
		})
	}
	return out
}

func mirrorLoader(t *testing.T) runner.Loader {
	mirror := sharedtest.RequireMirror(t)
	return func(ctx context.Context, name string) (*datasets.Dataset, error) {
		return datasets.ReadKEELFile(filepath.Join(mirror, name+".dat"))
	}
}

var (
	paperOnce sync.Once
	paperRecs []results.Record
	paperErr  error
)

// paperRun runs the four methods whose code the authors published under
// the paper protocol on all ten datasets, once per test binary.
func paperRun(t *testing.T) []results.Record {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the paper protocol on ten datasets")
	}
	load := mirrorLoader(t)
	paperOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fidelity-*")
		if err != nil {
			paperErr = err
			return
		}
		defer os.RemoveAll(dir)
		study := study.Study{
			Protocols: []string{"paper"},
			Datasets:  datasets.Names(),
			Methods:   []study.MethodSpec{{Name: "fgrt"}, {Name: "fgrt-opt"}, {Name: "cart"}, {Name: "c45-entropy"}},
			Options:   protocol.DefaultOptions(),
		}
		r := &runner.Runner{Load: load, OutDir: dir, Jobs: 2}
		if _, paperErr = r.Run(context.Background(), study); paperErr != nil {
			return
		}
		paperRecs, paperErr = results.ReadFile(filepath.Join(dir, results.FileName))
	})
	if paperErr != nil {
		t.Fatal(paperErr)
	}
	return paperRecs
}

// TestPaperProtocolReproducesAuthorsMeans compares the per-dataset means of
// FGRT, FGRT*, CART and C4.5 (entropy) — accuracy, leaves and internal
// nodes, over the test-selected (FGRT) or fixed configuration of each fold —
// with the authors' committed fuzzy_cart_results.csv (40 cells).
func TestPaperProtocolReproducesAuthorsMeans(t *testing.T) {
	recs := paperRun(t)
	cells, err := analysis.Aggregate(recs)
	if err != nil {
		t.Fatal(err)
	}
	var rows []gate.PaperRow
	for _, r := range analysis.PaperCheck(cells) {
		rows = append(rows, gate.PaperRow(r))
	}
	diffs := gate.PaperCompare(rows, nil)
	if len(diffs) != 40 {
		t.Fatalf("compared %d cells, want 40", len(diffs))
	}
	matched := 0
	for _, d := range diffs {
		if d.Match {
			matched++
			continue
		}
		t.Errorf("%s %s: accuracy %.6f leaves %.1f internal %.1f; authors %.6f %.1f %.1f",
			d.Method, d.Dataset, d.Ours, d.Leaves, d.InternalNodes, d.Authors, d.AuthorsLeaves, d.AuthorsInternal)
	}
	t.Logf("%d of %d authors' per-dataset means reproduced", matched, len(diffs))
}

func sameConfig(t *testing.T, cfg string, w authorsRow) bool {
	c, err := learn.ParseValues(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c.Int("max_rules") == w.maxRules && c.Float("coverage_threshold") == w.coverage && c.Float("min_improvement") == w.minImp
}

// TestPaperProtocolReproducesAuthorsAblationRows runs FGRT's 16
// configurations under the paper protocol on all ten datasets and compares
// every (dataset, fold, configuration) with the authors' committed row:
// accuracy, leaves (N_Rules) and internal nodes (N_Unique_Conditions).
func TestPaperProtocolReproducesAuthorsAblationRows(t *testing.T) {
	want := readAblation(t)
	recs := paperRun(t)
	got := map[string]results.Record{}
	for _, rec := range recs {
		if rec.Method != "fgrt" {
			continue
		}
		got[fmt.Sprintf("%s/%d/%d", rec.Dataset, rec.Fold, rec.ConfigIndex)] = rec
	}
	// Row k of a dataset in the authors' file is fold k/16, configuration k%16.
	seen := map[string]int{}
	mismatches := 0
	for _, w := range want {
		k := seen[w.dataset]
		seen[w.dataset]++
		id := fmt.Sprintf("%s/%d/%d", w.dataset, k/16, k%16)
		g, ok := got[id]
		switch {
		case !ok:
			t.Errorf("%s: no result row", id)
			mismatches++
		case !sameConfig(t, g.Config, w):
			mismatches++
			t.Errorf("%s: configuration %s, authors max_rules=%d coverage=%v min_improvement=%v", id, g.Config, w.maxRules, w.coverage, w.minImp)
		case math.Abs(g.Accuracy-w.accuracy) > 1e-6 || g.Leaves != w.leaves || g.InternalNodes != w.internal:
			mismatches++
			t.Errorf("%s (%s): accuracy %.6f leaves %d internal %d; authors %.6f %d %d",
				id, g.Config, g.Accuracy, g.Leaves, g.InternalNodes, w.accuracy, w.leaves, w.internal)
		}
	}
	if len(want) != 800 {
		t.Errorf("authors' file has %d rows, want 800", len(want))
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("compared %d authors' rows over %v: %d mismatches", len(want), names, mismatches)
}
