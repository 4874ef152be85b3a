package paper

import (
	"math"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

func readCSV(t *testing.T, rel string) [][]string {
	t.Helper()
	return sharedtest.ReadCSV(t, rel)
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// TestAccuracyMatchesReference compares the typed-in accuracy table with
// the reference transcription (paper-tables/accuracy.csv).
func TestAccuracyMatchesReference(t *testing.T) {
	rows := readCSV(t, "reference/paper-tables/accuracy.csv")
	header := rows[0][1:]
	checked := 0
	for _, row := range rows[1:] {
		for j, col := range header {
			want := num(t, row[j+1])
			var got float64
			var ok bool
			if row[0] == "mean" {
				got, ok = AccuracyMean(col)
			} else {
				got, ok = Accuracy(row[0], col)
			}
			if !ok || got != want {
				t.Errorf("%s/%s: got %v (%v), want %v", row[0], col, got, ok, want)
			}
			checked++
		}
	}
	if checked != 77 {
		t.Errorf("checked %d cells, want 77", checked)
	}
}

func TestComplexityAndDatasetsMatchReference(t *testing.T) {
	rows := readCSV(t, "reference/paper-tables/complexity.csv")
	for j, col := range rows[0][1:] {
		c, ok := Complexity(col)
		if !ok {
			t.Fatalf("no complexity column %s", col)
		}
		got := map[string]float64{"rules": c.Rules, "conditions_per_rule": c.ConditionsPerRule, "rulebase_size": c.RulebaseSize}
		for _, row := range rows[1:] {
			if want := num(t, row[j+1]); got[row[0]] != want {
				t.Errorf("complexity %s/%s = %v, want %v", col, row[0], got[row[0]], want)
			}
		}
	}
	rows = readCSV(t, "reference/paper-tables/datasets.csv")
	if len(rows)-1 != len(DatasetTable()) {
		t.Errorf("%d dataset rows, reference has %d", len(DatasetTable()), len(rows)-1)
	}
	for _, row := range rows[1:] {
		d, ok := Dataset(row[0])
		if !ok {
			t.Fatalf("no dataset %s", row[0])
		}
		if strconv.Itoa(d.Instances) != row[1] || strconv.Itoa(d.Features) != row[2] || strconv.Itoa(d.Classes) != row[3] || d.Domain != row[4] {
			t.Errorf("dataset %s = %+v, reference %v", row[0], d, row)
		}
	}
}

// TestAuthorsMatchCommittedCSV compares every typed-in value with the
// authors' fuzzy_cart_results.csv, bit for bit.
func TestAuthorsMatchCommittedCSV(t *testing.T) {
	rows := readCSV(t, "reference/authors-results/fuzzy_cart_results.csv")
	if len(rows)-1 != len(AuthorsTable()) {
		t.Fatalf("%d typed rows, CSV has %d", len(AuthorsTable()), len(rows)-1)
	}
	for i, row := range rows[1:] {
		a := AuthorsTable()[i]
		if a.Dataset != row[0] || a.AuthorsMethod != row[1] {
			t.Fatalf("row %d: %s/%s, CSV %s/%s", i, a.Dataset, a.AuthorsMethod, row[0], row[1])
		}
		for _, c := range []struct {
			name string
			got  float64
			col  int
		}{{"Accuracy", a.Accuracy, 2}, {"Accuracy_Std", a.AccuracyStd, 3}, {"N_Rules", a.NRules, 4}, {"N_Conditions", a.NConditions, 5}, {"N_Unique_Conditions", a.NUniqueConditions, 6}} {
			if want := num(t, row[c.col]); c.got != want {
				t.Errorf("%s/%s %s = %v, CSV %v", a.Dataset, a.AuthorsMethod, c.name, c.got, want)
			}
		}
	}
}

// TestPaperEqualsAuthorsRounded: the paper's FGRT/FGRT*/CART/C4.5 cells are
// the authors' means ×100 rounded to 2 decimals, except the one recorded
// discrepancy (C4.5 saheart); the printed means are the CSV column means.
func TestPaperEqualsAuthorsRounded(t *testing.T) {
	mismatches := 0
	for _, m := range AuthorsMethods {
		col, _ := ColumnForMethod(m)
		sum := 0.0
		for _, ds := range Datasets {
			a, ok := Authors(ds, m)
			if !ok {
				t.Fatalf("no authors row %s/%s", ds, m)
			}
			sum += a.Accuracy
			p, _ := Accuracy(ds, col)
			if math.Abs(math.Round(a.Accuracy*10000)/100-p) > 1e-9 {
				mismatches++
				found := false
				for _, d := range Discrepancies {
					if d.Dataset == ds && d.Column == col && d.Paper == p && math.Abs(d.Authors-math.Round(a.Accuracy*10000)/100) < 1e-9 {
						found = true
					}
				}
				if !found {
					t.Errorf("%s/%s: paper %v, authors %v, not a recorded discrepancy", ds, col, p, a.Accuracy)
				}
			}
		}
		mean, _ := AccuracyMean(col)
		if math.Abs(math.Round(sum*1000)/100-mean) > 1e-9 {
			t.Errorf("%s: mean of authors' rows %v, paper mean %v", col, sum*10, mean)
		}
	}
	if mismatches != len(Discrepancies) {
		t.Errorf("%d mismatching cells, %d recorded discrepancies", mismatches, len(Discrepancies))
	}
}

func TestLookupsMiss(t *testing.T) {
	if _, ok := Accuracy("iris", FGRT); ok {
		t.Error("unknown dataset found")
	}
	if _, ok := Accuracy("wine", "SVM"); ok {
		t.Error("unknown column found")
	}
	if _, ok := ColumnForMethod("knn"); ok {
		t.Error("unknown method mapped")
	}
	if _, ok := Authors("wine", "ripper"); ok {
		t.Error("authors row for ripper")
	}
}

// TestColumnProvenance pins which method of the authors' code produced
// each accuracy column (none for RIPPER, FRR and FGA, which have no code
// in their repository) and which column is a single hold-out.
func TestColumnProvenance(t *testing.T) {
	for _, c := range []struct {
		column, authors string
		ran, holdout    bool
	}{
		{FGRT, "fgrt", true, false}, {FGRTStar, "fgrt-opt", true, false}, {CART, "cart", true, false},
		{C45, "c45-entropy", true, false}, {RIPPER, "", false, false}, {FRR, "", false, false}, {FGA, "", false, true},
	} {
		m, ran := AuthorsMethodOf(c.column)
		if m != c.authors || ran != c.ran || HoldoutColumn(c.column) != c.holdout {
			t.Errorf("%s: authors' method %q (%v), hold-out %v; want %q (%v), %v", c.column, m, ran, HoldoutColumn(c.column), c.authors, c.ran, c.holdout)
		}
	}
	if d, ok := DiscrepancyOf("saheart", C45); !ok || d.Authors != 64.71 {
		t.Errorf("saheart's C4.5 typo: %+v %v", d, ok)
	}
	if _, ok := DiscrepancyOf("wine", C45); ok {
		t.Error("wine's C4.5 has no known typo")
	}
}
