package sksplit

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/nprand"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

type scalerVector struct {
	X            [][]float64 `json:"X"`
	Mean         []float64   `json:"mean"`
	Var          []float64   `json:"var"`
	Scale        []float64   `json:"scale"`
	XScaled      [][]float64 `json:"X_scaled"`
	RowMajorMean []float64   `json:"row_major_mean"`
	RowMajorVar  []float64   `json:"row_major_var"`
}

type vectors struct {
	ApproximateMode []struct {
		ClassCounts []int  `json:"class_counts"`
		NDraws      int    `json:"n_draws"`
		Seed        uint32 `json:"seed"`
		Result      []int  `json:"result"`
		Next        uint32 `json:"next_uint32_after"`
	} `json:"approximate_mode"`
	YPattern struct {
		Example []int `json:"example_n10_C3"`
	} `json:"y_pattern"`
	TrainTestSplit []struct {
		Name        string  `json:"name"`
		Y           []int   `json:"y"`
		TestSize    float64 `json:"test_size"`
		RandomState uint32  `json:"random_state"`
		NTrain      int     `json:"n_train"`
		NTest       int     `json:"n_test"`
		Train       []int   `json:"train"`
		Test        []int   `json:"test"`
		Error       string  `json:"error"`
	} `json:"train_test_split"`
	KFoldSmall []struct {
		Name  string `json:"name"`
		Y     []int  `json:"y"`
		Folds []int  `json:"folds"`
	} `json:"stratified_kfold_small"`
	KFoldPattern []struct {
		N      int   `json:"n"`
		C      int   `json:"C"`
		Counts []int `json:"class_counts_by_label"`
		Folds  []int `json:"folds"`
	} `json:"stratified_kfold_pattern"`
	Scaler    scalerVector `json:"standard_scaler"`
	Scaler300 scalerVector `json:"standard_scaler_300"`
}

func loadVectors(t *testing.T) *vectors {
	t.Helper()
	var v vectors
	sharedtest.ReadJSON(t, "reference/sklearn-vectors.json", &v)
	return &v
}

// yPattern is the vectors' deterministic label generator (docs/protocols.md#test-vectors).
func yPattern(n, c int) []int {
	y := make([]int, n)
	for i := range y {
		v := (int64(i)*7919 + 5003) % 10007
		k := int64(c) * v * v / (10007 * 10007)
		y[i] = c - 1 - int(k)
	}
	return y
}

func TestApproximateModeVectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.ApproximateMode {
		t.Run(fmt.Sprintf("%v_%d_seed%d", c.ClassCounts, c.NDraws, c.Seed), func(t *testing.T) {
			r := nprand.New(c.Seed)
			if got := ApproximateMode(c.ClassCounts, c.NDraws, r); !slices.Equal(got, c.Result) {
				t.Fatalf("got %v, want %v", got, c.Result)
			}
			if got := r.Uint32(); got != c.Next {
				t.Fatalf("next draw %d, want %d (draw count differs)", got, c.Next)
			}
		})
	}
}

func TestTrainTestSplitVectors(t *testing.T) {
	v := loadVectors(t)
	if got := yPattern(10, 3); !slices.Equal(got, v.YPattern.Example) {
		t.Fatalf("yPattern(10,3) = %v, want %v", got, v.YPattern.Example)
	}
	for _, c := range v.TrainTestSplit {
		t.Run(c.Name, func(t *testing.T) {
			train, test, err := TrainTestSplit(c.Y, c.TestSize, c.RandomState)
			if c.Error != "" {
				if err == nil || err.Error() != c.Error {
					t.Fatalf("error %v, want %q", err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(train) != c.NTrain || len(test) != c.NTest {
				t.Fatalf("sizes %d/%d, want %d/%d", len(train), len(test), c.NTrain, c.NTest)
			}
			if !slices.Equal(train, c.Train) || !slices.Equal(test, c.Test) {
				t.Fatalf("train %v test %v\nwant train %v test %v", train, test, c.Train, c.Test)
			}
		})
	}
}

func TestStratifiedKFoldVectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.KFoldSmall {
		t.Run(c.Name, func(t *testing.T) {
			got, err := StratifiedKFold(c.Y, 5, true, 42)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.Folds) {
				t.Fatalf("got %v, want %v", got, c.Folds)
			}
		})
	}
	for _, c := range v.KFoldPattern {
		t.Run(fmt.Sprintf("pattern_n%d_C%d", c.N, c.C), func(t *testing.T) {
			y := yPattern(c.N, c.C)
			counts := make([]int, c.C)
			for _, l := range y {
				counts[l]++
			}
			if !slices.Equal(counts, c.Counts) {
				t.Fatalf("class counts %v, want %v", counts, c.Counts)
			}
			got, err := StratifiedKFold(y, 5, true, 42)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.Folds) {
				t.Fatal("fold assignment differs")
			}
		})
	}
}

func checkScaler(t *testing.T, sv scalerVector) {
	t.Helper()
	cols := make([]int, len(sv.X[0]))
	for j := range cols {
		cols[j] = j
	}
	var s StandardScaler
	if err := s.Fit(sv.X, cols); err != nil {
		t.Fatal(err)
	}
	for j := range cols {
		if math.Float64bits(s.Mean[j]) != math.Float64bits(sv.Mean[j]) ||
			math.Float64bits(s.Var[j]) != math.Float64bits(sv.Var[j]) ||
			math.Float64bits(s.Scale[j]) != math.Float64bits(sv.Scale[j]) {
			t.Errorf("column %d: mean/var/scale %v %v %v, want %v %v %v", j, s.Mean[j], s.Var[j], s.Scale[j], sv.Mean[j], sv.Var[j], sv.Scale[j])
		}
	}
	got := s.Transform(sv.X)
	inPlace := make([][]float64, len(sv.X))
	for i := range inPlace {
		inPlace[i] = slices.Clone(sv.X[i])
	}
	if err := s.TransformInPlace(inPlace); err != nil {
		t.Fatal(err)
	}
	if got := FitScaler(sv.X, cols); !slices.Equal(got.Scale, s.Scale) || !slices.Equal(got.Mean, s.Mean) {
		t.Fatal("FitScaler differs from Fit")
	}
	for i := range got {
		for j := range got[i] {
			if math.Float64bits(got[i][j]) != math.Float64bits(sv.XScaled[i][j]) || math.Float64bits(inPlace[i][j]) != math.Float64bits(got[i][j]) {
				t.Fatalf("X_scaled[%d][%d] = %v, want %v", i, j, got[i][j], sv.XScaled[i][j])
			}
		}
	}
}

func TestStandardScalerVectors(t *testing.T) {
	v := loadVectors(t)
	t.Run("37x3_constant_column", func(t *testing.T) { checkScaler(t, v.Scaler) })
	t.Run("300x2", func(t *testing.T) { checkScaler(t, v.Scaler300) })
	// The row-major contrast values must come out of a strictly sequential
	// row-by-row sum, which shows the vectors distinguish the two orders.
	t.Run("row_major_contrast", func(t *testing.T) {
		X := v.Scaler.X
		j := 2
		seq := 0.0
		for _, row := range X {
			seq += row[j]
		}
		if seq/float64(len(X)) != v.Scaler.RowMajorMean[j] {
			t.Fatalf("sequential mean %v, want %v", seq/float64(len(X)), v.Scaler.RowMajorMean[j])
		}
		if v.Scaler.RowMajorMean[j] == v.Scaler.Mean[j] {
			t.Fatal("vectors do not distinguish summation orders")
		}
	})
}

// Worked example of docs/protocols.md#paper-splits, independent of the vectors.
func TestStratifiedKFoldSpecExample(t *testing.T) {
	y := []int{2, 2, 0, 1, 2, 0, 0, 2, 1, 2, 0, 2}
	want := []int{0, 0, 2, 0, 4, 3, 4, 1, 1, 3, 1, 2}
	got, err := StratifiedKFold(y, 5, true, 42)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %v %v, want %v", got, err, want)
	}
}

func TestStratifiedKFoldErrorsAndWarnings(t *testing.T) {
	tests := []struct {
		name    string
		y       []int
		k       int
		wantErr bool
		fewer   bool
	}{
		{"k above n", []int{0, 1, 0}, 5, true, true},
		{"k below 2", []int{0, 1, 0, 1}, 1, true, false},
		{"all classes below k", []int{0, 0, 1, 1, 2, 2}, 3 + 1, true, true},
		{"one class below k only warns", []int{0, 0, 0, 0, 0, 1, 1}, 5, false, true},
		{"single class", []int{4, 4, 4, 4, 4}, 5, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			folds, err := StratifiedKFold(tc.y, tc.k, true, 1)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if got := FewerThanK(tc.y, tc.k); got != tc.fewer {
				t.Fatalf("FewerThanK = %v, want %v", got, tc.fewer)
			}
			if err == nil && len(folds) != len(tc.y) {
				t.Fatalf("len(folds) = %d", len(folds))
			}
		})
	}
}

// Properties: folds are balanced per class (sizes differ by at most one
// within a class), every fold index is in range, and shuffle=false is the
// deterministic round robin.
func TestStratifiedKFoldProperties(t *testing.T) {
	for _, nc := range [][2]int{{50, 2}, {101, 7}, {333, 3}} {
		y := yPattern(nc[0], nc[1])
		for _, shuffle := range []bool{false, true} {
			folds, err := StratifiedKFold(y, 5, shuffle, 9)
			if err != nil {
				t.Fatal(err)
			}
			per := map[int][]int{}
			for i, f := range folds {
				if f < 0 || f >= 5 {
					t.Fatalf("fold %d out of range", f)
				}
				if per[y[i]] == nil {
					per[y[i]] = make([]int, 5)
				}
				per[y[i]][f]++
			}
			for c, sizes := range per {
				if slices.Max(sizes)-slices.Min(sizes) > 1 {
					t.Fatalf("class %d fold sizes %v unbalanced", c, sizes)
				}
			}
		}
	}
}

// Properties of the stratified split: train and test are disjoint, cover the
// requested sizes and keep every class in both parts.
func TestTrainTestSplitProperties(t *testing.T) {
	for _, nc := range [][2]int{{40, 2}, {101, 7}, {500, 4}} {
		y := yPattern(nc[0], nc[1])
		for _, ts := range []float64{0.2, 0.25, 1 - 0.8} {
			train, test, err := TrainTestSplit(y, ts, 33)
			if err != nil {
				t.Fatal(err)
			}
			if len(test) != int(math.Ceil(ts*float64(len(y)))) || len(train)+len(test) != len(y) {
				t.Fatalf("sizes %d/%d", len(train), len(test))
			}
			seen := make([]bool, len(y))
			for _, i := range append(slices.Clone(train), test...) {
				if seen[i] {
					t.Fatalf("index %d twice", i)
				}
				seen[i] = true
			}
		}
	}
	if _, _, err := TrainTestSplit(nil, 0.2, 1); err == nil {
		t.Fatal("empty y: want error")
	}
	if _, _, err := TrainTestSplit([]int{0, 1, 0, 1}, 1.5, 1); err == nil {
		t.Fatal("test_size 1.5: want error")
	}
}

func TestScalerBadInput(t *testing.T) {
	var s StandardScaler
	if err := s.Fit(nil, []int{0}); err == nil {
		t.Fatal("empty: want error")
	}
	if err := s.Fit([][]float64{{1, 2}, {3}}, []int{1}); err == nil {
		t.Fatal("ragged: want error")
	}
	if err := s.Fit([][]float64{{math.NaN()}}, []int{0}); err == nil {
		t.Fatal("NaN: want error")
	}
	if err := s.Fit([][]float64{{5, 1}, {5, 2}}, []int{0}); err != nil || s.Scale[0] != 1 {
		t.Fatalf("constant column: err %v scale %v", err, s.Scale)
	}
}

func BenchmarkStratifiedKFold7400(b *testing.B) {
	y := yPattern(7400, 2)
	for b.Loop() {
		if _, err := StratifiedKFold(y, 5, true, 42); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTrainTestSplit7400(b *testing.B) {
	y := yPattern(7400, 2)
	for b.Loop() {
		if _, _, err := TrainTestSplit(y, 0.2, 33); err != nil {
			b.Fatal(err)
		}
	}
}
