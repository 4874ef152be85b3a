package cart

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/learn"
)

// foldMatrix is a golden *_folds.csv: the preprocessed matrix the authors'
// experiment feeds every learner, with the test fold of each row.
type foldMatrix struct {
	X    [][]float64
	y    []int
	fold []int
}

func readFoldMatrix(t *testing.T, rel string) foldMatrix {
	t.Helper()
	recs := sharedtest.ReadCSV(t, rel)
	header := recs[0]
	var m foldMatrix
	for _, rec := range recs[1:] {
		var row []float64
		for j, name := range header {
			switch {
			case strings.HasPrefix(name, "x"):
				v, err := strconv.ParseFloat(rec[j], 64)
				if err != nil {
					t.Fatal(err)
				}
				row = append(row, v)
			case name == "y" || name == "fold":
				v, err := strconv.Atoi(rec[j])
				if err != nil {
					t.Fatal(err)
				}
				if name == "y" {
					m.y = append(m.y, v)
				} else {
					m.fold = append(m.fold, v)
				}
			}
		}
		m.X = append(m.X, row)
	}
	return m
}

// TestAuthorsResults reproduces the committed CART and "C4.5" rows of the
// authors' fuzzy_cart_results.csv from the golden fold matrices: 5-fold mean
// accuracy and its (population) std, mean leaves (N_Rules), mean internal
// nodes (N_Unique_Conditions) and mean internal/leaves (N_Conditions).
func TestAuthorsResults(t *testing.T) {
	cases := []struct {
		file, method                        string
		crit                                Criterion
		acc, std, leaves, perLeaf, internal float64
	}{
		{"reference/golden/wine_folds.csv", "CART", Gini, 0.8987301587301587, 0.05250250446941167, 7.6, 0.858095238095238, 6.6},
		{"reference/golden/wine_folds.csv", "C4.5", Entropy, 0.9207936507936507, 0.04962037796914646, 7.2, 0.8561904761904762, 6.2},
		{"reference/golden/appendicitis_folds.csv", "CART", Gini, 0.7255411255411256, 0.06557262763207443, 10.6, 0.9012820512820513, 9.6},
		{"reference/golden/appendicitis_folds.csv", "C4.5", Entropy, 0.745021645021645, 0.04959308568526299, 10.8, 0.9036435786435785, 9.8},
	}
	for _, tc := range cases {
		t.Run(tc.file+"/"+tc.method, func(t *testing.T) {
			m := readFoldMatrix(t, tc.file)
			s := schemaFor(len(m.X[0]), m.y)
			tr := mustTrainer(t, PaperConfig(tc.crit))
			var accs []float64
			var leaves, internal, perLeaf float64
			for k := 0; k < 5; k++ {
				var Xtr, Xte [][]float64
				var ytr, yte []int
				for i, f := range m.fold {
					if f == k {
						Xte, yte = append(Xte, m.X[i]), append(yte, m.y[i])
					} else {
						Xtr, ytr = append(Xtr, m.X[i]), append(ytr, m.y[i])
					}
				}
				model, err := tr.Fit(Xtr, ytr, s)
				if err != nil {
					t.Fatal(err)
				}
				accs = append(accs, learn.Accuracy(yte, model.Predict(Xte)))
				c := model.Complexity()
				leaves += float64(c.Leaves)
				internal += float64(c.InternalNodes)
				perLeaf += c.InternalPerLeaf()
			}
			mean, std := meanStd(accs)
			check := func(name string, got, want float64) {
				if math.Abs(got-want) > 1e-12 {
					t.Errorf("%s = %.17g, want %.17g", name, got, want)
				}
			}
			check("accuracy", mean, tc.acc)
			check("accuracy std", std, tc.std)
			check("N_Rules", leaves/5, tc.leaves)
			check("N_Unique_Conditions", internal/5, tc.internal)
			check("N_Conditions", perLeaf/5, tc.perLeaf)
		})
	}
}

func meanStd(v []float64) (float64, float64) {
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	ss := 0.0
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)))
}
