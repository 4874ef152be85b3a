package ripper

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// readCSV reads a testdata CSV whose last column is "Class" (integer class
// index). Columns that do not parse as numbers are nominal, coded by first
// appearance; empty cells are NaN.
func readCSV(t *testing.T, path string) ([][]float64, []int, learn.Schema) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header, rows := recs[0], recs[1:]
	d := len(header) - 1
	s := learn.Schema{}
	nominal := make([]bool, d)
	for j := 0; j < d; j++ {
		s.Features = append(s.Features, learn.Feature{Name: header[j]})
		for _, r := range rows {
			if r[j] == "" {
				continue
			}
			if _, err := strconv.ParseFloat(r[j], 64); err != nil {
				nominal[j] = true
				break
			}
		}
		s.Features[j].Nominal = nominal[j]
	}
	X := make([][]float64, len(rows))
	y := make([]int, len(rows))
	maxClass := 0
	for i, r := range rows {
		X[i] = make([]float64, d)
		for j := 0; j < d; j++ {
			switch {
			case r[j] == "":
				X[i][j] = math.NaN()
			case nominal[j]:
				k := slices.Index(s.Features[j].Categories, r[j])
				if k < 0 {
					k = len(s.Features[j].Categories)
					s.Features[j].Categories = append(s.Features[j].Categories, r[j])
				}
				X[i][j] = float64(k)
			default:
				X[i][j], _ = strconv.ParseFloat(r[j], 64)
			}
		}
		y[i], _ = strconv.Atoi(r[d])
		maxClass = max(maxClass, y[i])
	}
	for c := 0; c <= maxClass; c++ {
		s.Classes = append(s.Classes, strconv.Itoa(c))
	}
	return X, y, s
}

// goldenLines renders a model in the golden files' layout: one line per rule,
// "class<TAB>sorted conditions", sorted, then the training predictions.
func goldenLines(m *Model, s learn.Schema, pred []int) []string {
	var lines []string
	for e, est := range m.estimators {
		for _, r := range est.rules {
			var conds []string
			for _, c := range r {
				cd := m.conds[c]
				col := m.columns[cd.feature]
				var v string
				switch {
				case cd.code == missingCode:
					v = "nan"
				case col.binned:
					v = col.binLabel(cd.code)
				case s.Features[cd.feature].Nominal:
					v = s.Features[cd.feature].Categories[int(col.values[cd.code])]
				default:
					v = strconv.FormatFloat(col.values[cd.code], 'g', -1, 64)
				}
				conds = append(conds, s.Features[cd.feature].Name+"="+v)
			}
			slices.Sort(conds)
			if len(conds) == 0 {
				conds = []string{"TRUE"}
			}
			lines = append(lines, strconv.Itoa(m.positives[e])+"\t"+strings.Join(conds, ";"))
		}
	}
	slices.Sort(lines)
	ps := make([]string, len(pred))
	for i, p := range pred {
		ps[i] = strconv.Itoa(p)
	}
	return append(lines, "PRED\t"+strings.Join(ps, " "))
}

// TestGoldenAgainstWittgenstein compares with rule sets and predictions
// produced by wittgenstein v0.3.5 + scikit-learn 1.2.1 OneVsRestClassifier
// with the grow/prune splits fixed to index order. They were recorded by
// running that reference once on the two CSV files here (wittgenstein's
// random_split and set_shuffled_split replaced by a split that keeps the
// first fraction of the rows in index order, then RIPPER() per class via
// OneVsRestClassifier). Each .golden holds one line per rule,
// "class<TAB>cond;cond" with the conditions sorted, and a final PRED line
// with the predictions on the training rows. The generating script is not
// kept in the repository because it drives the reference's code.
// With the randomness removed, the port must reproduce them exactly: bins,
// candidate order, FOIL gain, pruning, DL stops, optimisation, cover pass,
// best subset, probabilities and the one-vs-rest decision.
func TestGoldenAgainstWittgenstein(t *testing.T) {
	for _, name := range []string{"threeclass", "binary"} {
		t.Run(name, func(t *testing.T) {
			X, y, s := readCSV(t, filepath.Join("testdata", name+".csv"))
			raw, err := os.ReadFile(filepath.Join("testdata", name+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSpace(string(raw)), "\n")
			cfg := DefaultConfig()
			cfg.Unshuffled = true
			tr, _ := New(cfg)
			lm, err := tr.Fit(X, y, s)
			if err != nil {
				t.Fatal(err)
			}
			m := lm.(*Model)
			got := goldenLines(m, s, m.Predict(X))
			if !slices.Equal(got, want) {
				t.Errorf("rules differ from wittgenstein\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
