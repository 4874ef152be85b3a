package paperprep

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/internal/sksplit"
)

type keelVector struct {
	NRawRows    int       `json:"n_raw_rows"`
	Dropped     []int     `json:"dropped_raw_rows"`
	N           int       `json:"n"`
	ClassList   []string  `json:"class_list"`
	Categorical []bool    `json:"categorical_inputs"`
	MatrixDtype string    `json:"matrix_dtype_before_scaling"`
	ClassCounts []int     `json:"class_counts"`
	NTrain      int       `json:"n_train"`
	NVal        int       `json:"n_val"`
	NTest       int       `json:"n_test"`
	RowOrderRaw []int     `json:"row_order_raw"`
	YStacked    []int     `json:"y_stacked"`
	Folds       []int     `json:"folds"`
	XFirstRow   []float64 `json:"X_first_row"`
	XLastRow    []float64 `json:"X_last_row"`
	XBitsHash   string    `json:"X_bits_hash"`
}

type pipelineVector struct {
	N              int   `json:"n"`
	C              int   `json:"C"`
	Y              []int `json:"y"`
	FirstTrain     []int `json:"first_split_train"`
	FirstTest      []int `json:"first_split_test"`
	SecondTrainPos []int `json:"second_split_train_positions"`
	SecondTestPos  []int `json:"second_split_test_positions"`
	RowOrder       []int `json:"row_order"`
	NTrain         int   `json:"n_train"`
	NVal           int   `json:"n_val"`
	NTest          int   `json:"n_test"`
	Folds          []int `json:"folds"`
}

type vectors struct {
	Keel      map[string]keelVector `json:"keel_pipeline"`
	Pipeline  []pipelineVector      `json:"pipeline_synthetic"`
	Factorize struct {
		Values []*string `json:"values"`
		Codes  []int     `json:"codes"`
		Unique []string  `json:"uniques"`
	} `json:"factorize"`
	FactorizeInt struct {
		Values []int `json:"values"`
		Codes  []int `json:"codes"`
		Unique []int `json:"uniques"`
	} `json:"factorize_int"`
}

func loadVectors(t *testing.T) *vectors {
	t.Helper()
	var v vectors
	sharedtest.ReadJSON(t, "reference/sklearn-vectors.json", &v)
	return &v
}

// matrixHash is the vectors' X_bits_hash: FNV-1a 64 over the float64 bits of
// every value, row-major, each as 8 little-endian bytes.
func matrixHash(X [][]float64) string {
	h := fnv.New64a()
	var buf [8]byte
	for _, row := range X {
		for _, v := range row {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			h.Write(buf[:])
		}
	}
	return fmt.Sprintf("0x%016x", h.Sum64())
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func readMirror(t *testing.T, name string) *datasets.Dataset {
	t.Helper()
	dir := sharedtest.Mirror()
	if dir == "" {
		t.Skip("KEEL mirror not found (set FGRT_SHARED)")
	}
	d, err := datasets.ReadKEELFile(filepath.Join(dir, name+".dat"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestKEELPipelineVectors(t *testing.T) {
	v := loadVectors(t)
	if len(v.Keel) != 10 {
		t.Fatalf("keel_pipeline has %d datasets, want 10", len(v.Keel))
	}
	names := make([]string, 0, len(v.Keel))
	for name := range v.Keel {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		want := v.Keel[name]
		t.Run(name, func(t *testing.T) {
			d := readMirror(t, name)
			p, err := Prepare(d)
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, ok bool) {
				t.Helper()
				if !ok {
					t.Errorf("%s differs", what)
				}
			}
			check("n_raw_rows", d.Rows() == want.NRawRows)
			check("dropped_raw_rows", slices.Equal(p.Dropped, want.Dropped))
			check("n", len(p.X) == want.N)
			check("class_list", slices.Equal(d.Classes, want.ClassList))
			check("categorical_inputs", slices.Equal(p.Categorical, want.Categorical))
			check("matrix dtype", IntegerMatrix(d.Inputs) == (want.MatrixDtype == "int64"))
			counts := make([]int, len(d.Classes))
			for _, c := range p.Y {
				counts[c]++
			}
			check("class_counts", slices.Equal(counts, want.ClassCounts))
			check("n_train/n_val/n_test", p.NTrain == want.NTrain && p.NVal == want.NVal && p.NTest == want.NTest)
			check("row_order_raw", slices.Equal(p.SrcRow, want.RowOrderRaw))
			check("y_stacked", slices.Equal(p.Y, want.YStacked))
			check("folds", slices.Equal(p.Fold, want.Folds))
			check("X_first_row", sameBits(p.X[0], want.XFirstRow))
			check("X_last_row", sameBits(p.X[len(p.X)-1], want.XLastRow))
			if h := matrixHash(p.X); h != want.XBitsHash {
				t.Errorf("X_bits_hash %s, want %s", h, want.XBitsHash)
			}
		})
	}
}

func TestGoldenFoldMatrices(t *testing.T) {
	for _, name := range []string{"wine", "appendicitis"} {
		t.Run(name, func(t *testing.T) {
			recs := sharedtest.ReadCSV(t, "reference/golden/"+name+"_folds.csv")
			p, err := Prepare(readMirror(t, name))
			if err != nil {
				t.Fatal(err)
			}
			rows := recs[1:]
			if len(rows) != len(p.X) {
				t.Fatalf("%d golden rows, %d prepared", len(rows), len(p.X))
			}
			d := len(p.X[0])
			if len(recs[0]) != d+3 {
				t.Fatalf("golden header %v does not match %d features", recs[0], d)
			}
			for r, rec := range rows {
				num := func(s string) float64 {
					v, err := strconv.ParseFloat(s, 64)
					if err != nil {
						t.Fatalf("row %d: %v", r, err)
					}
					return v
				}
				if int(num(rec[0])) != p.SrcRow[r] {
					t.Fatalf("row %d: src_row %s, got %d", r, rec[0], p.SrcRow[r])
				}
				for j := 0; j < d; j++ {
					if x := num(rec[1+j]); math.Float64bits(x) != math.Float64bits(p.X[r][j]) {
						t.Fatalf("row %d x%d: golden %v, got %v", r, j, x, p.X[r][j])
					}
				}
				if int(num(rec[d+1])) != p.Y[r] || int(num(rec[d+2])) != p.Fold[r] {
					t.Fatalf("row %d: y/fold %s/%s, got %d/%d", r, rec[d+1], rec[d+2], p.Y[r], p.Fold[r])
				}
			}
		})
	}
}

func TestPipelineSyntheticVectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.Pipeline {
		t.Run(fmt.Sprintf("n%d_C%d", c.N, c.C), func(t *testing.T) {
			tr1, te1, err := sksplit.TrainTestSplit(c.Y, 1-0.8, 33)
			if err != nil || !slices.Equal(tr1, c.FirstTrain) || !slices.Equal(te1, c.FirstTest) {
				t.Fatalf("first split differs (err %v)", err)
			}
			ytv := make([]int, len(tr1))
			for i, r := range tr1 {
				ytv[i] = c.Y[r]
			}
			tr2, te2, err := sksplit.TrainTestSplit(ytv, 0.2, 33)
			if err != nil || !slices.Equal(tr2, c.SecondTrainPos) || !slices.Equal(te2, c.SecondTestPos) {
				t.Fatalf("second split differs (err %v)", err)
			}
			order, nTrain, nVal, nTest, err := Split(c.Y, 0.8, 0.2, 33)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(order, c.RowOrder) {
				t.Fatal("row_order differs")
			}
			if nTrain != c.NTrain || nVal != c.NVal || nTest != c.NTest {
				t.Fatalf("sizes %d/%d/%d, want %d/%d/%d", nTrain, nVal, nTest, c.NTrain, c.NVal, c.NTest)
			}
			ys := make([]int, len(order))
			for r, i := range order {
				ys[r] = c.Y[i]
			}
			folds, err := Folds(ys, 5, 42)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(folds, c.Folds) {
				t.Fatal("folds differ")
			}
		})
	}
}

// Factorize vectors through Dataset.FirstAppearanceCodes, the factorization
// Prepare relies on.
func TestFactorizeVectors(t *testing.T) {
	v := loadVectors(t)
	t.Run("strings", func(t *testing.T) {
		fv := v.Factorize
		a := datasets.Attribute{Name: "s", Type: "nominal"}
		index := map[string]int{}
		d := &datasets.Dataset{Inputs: []datasets.Attribute{a}}
		for _, s := range fv.Values {
			if s == nil {
				d.X = append(d.X, []float64{math.NaN()})
				continue
			}
			// Declare the domain in sorted order so that first appearance
			// and declared order differ.
			if _, ok := index[*s]; !ok {
				index[*s] = -1
			}
			d.X = append(d.X, nil)
		}
		dom := make([]string, 0, len(index))
		for s := range index {
			dom = append(dom, s)
		}
		slices.Sort(dom)
		for i, s := range dom {
			index[s] = i
		}
		d.Inputs[0].Domain = dom
		for i, s := range fv.Values {
			if s != nil {
				d.X[i] = []float64{float64(index[*s])}
			}
		}
		codes, labels := d.FirstAppearanceCodes()
		for i, want := range fv.Codes {
			got := codes[i][0]
			if want == -1 {
				if !math.IsNaN(got) {
					t.Fatalf("row %d: missing value coded %v", i, got)
				}
				continue
			}
			if got != float64(want) {
				t.Fatalf("row %d: code %v, want %d", i, got, want)
			}
		}
		if !slices.Equal(labels[0], fv.Unique) {
			t.Fatalf("uniques %v, want %v", labels[0], fv.Unique)
		}
	})
	t.Run("ints", func(t *testing.T) {
		fv := v.FactorizeInt
		dom := []string{}
		pos := map[int]int{}
		sorted := slices.Clone(fv.Values)
		slices.Sort(sorted)
		for _, x := range slices.Compact(sorted) {
			pos[x] = len(dom)
			dom = append(dom, strconv.Itoa(x))
		}
		d := &datasets.Dataset{Inputs: []datasets.Attribute{{Name: "i", Type: "nominal", Domain: dom}}}
		for _, x := range fv.Values {
			d.X = append(d.X, []float64{float64(pos[x])})
		}
		codes, labels := d.FirstAppearanceCodes()
		for i, want := range fv.Codes {
			if codes[i][0] != float64(want) {
				t.Fatalf("row %d: code %v, want %d", i, codes[i][0], want)
			}
		}
		for k, u := range fv.Unique {
			if labels[0][k] != strconv.Itoa(u) {
				t.Fatalf("uniques %v, want %v", labels[0], fv.Unique)
			}
		}
	})
}
