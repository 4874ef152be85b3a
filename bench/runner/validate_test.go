package runner

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// classSizes builds a 2-feature dataset with the given number of rows per
// class; missing (if > 0) rows of class 0 get a NaN input.
func classSizes(name string, sizes []int, missing int) *datasets.Dataset {
	d := &datasets.Dataset{Name: name}
	for j := 0; j < 2; j++ {
		d.Inputs = append(d.Inputs, datasets.Attribute{Name: fmt.Sprintf("f%d", j), Type: "real", Min: math.NaN(), Max: math.NaN()})
	}
	for c, n := range sizes {
		d.Classes = append(d.Classes, fmt.Sprintf("c%d", c))
		for i := 0; i < n; i++ {
			row := []float64{float64(c) + 0.1*float64(i), float64(i % 3)}
			if c == 0 && i < missing {
				row[1] = math.NaN()
			}
			d.X = append(d.X, row)
			d.Y = append(d.Y, c)
		}
	}
	return d
}

// TestValidateRefusesBeforeWriting: every study the data or the spec makes
// impossible is refused by Run with one line before the output directory
// exists, and no unit runs.
func TestValidateRefusesBeforeWriting(t *testing.T) {
	huge := classSizes("huge", []int{20, 20}, 0)
	for i := range huge.X {
		huge.X[i][0] = math.MaxFloat64 // the scaler's sum overflows to +Inf
	}
	data := map[string]*datasets.Dataset{
		"one-class":    classSizes("one-class", []int{30}, 0),
		"declared-two": classSizes("declared-two", []int{30, 0}, 0),
		"single-row":   classSizes("single-row", []int{30, 1}, 0),
		"too-few":      classSizes("too-few", []int{4, 3}, 0),
		"all-missing":  classSizes("all-missing", []int{5}, 5),
		"huge":         huge,
	}
	load := func(ctx context.Context, name string) (*datasets.Dataset, error) {
		if d, ok := data[name]; ok {
			return d, nil
		}
		return testLoader(ctx, name)
	}
	cases := []struct {
		name   string
		mutate func(*study.Study)
		want   string
	}{
		{"one class", func(s *study.Study) { s.Datasets = []string{"alpha", "one-class"} }, "single class"},
		{"declared class without rows", func(s *study.Study) { s.Datasets = []string{"declared-two"} }, "single class"},
		{"class with one row", func(s *study.Study) { s.Datasets = []string{"single-row"} }, `class "c1" has a single complete row`},
		{"too few rows for the folds", func(s *study.Study) { s.Datasets = []string{"too-few"} }, "needs a class with at least 5 complete rows; the largest has 4"},
		{"paper protocol folds", func(s *study.Study) {
			s.Options.Folds, s.Options.InnerFolds = 2, 2
			s.Protocols = []string{"clean", "paper"}
			s.Datasets = []string{"too-few"}
			s.Methods = s.Methods[:1]
		}, "5-fold"},
		{"no complete row", func(s *study.Study) { s.Datasets = []string{"all-missing"} }, "missing input"},
		{"unknown dataset", func(s *study.Study) { s.Datasets = []string{"alpha", "missing"} }, "unknown dataset"},
		{"inner folds", func(s *study.Study) {
			s.Datasets = []string{"too-few"}
			s.Options.Folds = 2
			s.Options.InnerFolds = 4
		}, "inner folds"},
		{"not finite after scaling", func(s *study.Study) { s.Datasets = []string{"huge"} }, "is NaN after preprocessing"},
		{"folds 0", func(s *study.Study) { s.Options.Folds = 0 }, "folds must be at least 2"},
		{"empty sweep list", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "test-centroid", Sweep: map[string][]string{"k": {}}}}
		}, "sweep of k lists no values"},
		{"sweep value listed twice", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "test-centroid", Sweep: map[string][]string{"k": {"1", "4", "1.0"}}, Selection: "sweep"}}
		}, `sweep of k lists one value twice ("1" and "1.0")`},
		{"empty sweep", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "test-centroid", Sweep: map[string][]string{}}}
		}, "sweep names no parameter"},
		{"no datasets", func(s *study.Study) { s.Datasets = []string{} }, "at least one"},
		{"dataset listed twice", func(s *study.Study) { s.Datasets = []string{"alpha", "alpha"} }, `dataset "alpha" is listed twice`},
		{"label of another method", func(s *study.Study) { s.Methods[0].Label = "fgrt-opt" }, `label "fgrt-opt" names the method fgrt-opt`},
		{"label of another method's variant", func(s *study.Study) { s.Methods[0].Label = "cart@text" }, `label "cart@text" names the method cart`},
		{"fgrt-fixed label on another method", func(s *study.Study) { s.Methods[0].Label = "fgrt-fixed" }, `label "fgrt-fixed" is shown as FGRT with quirks Q1 and Q2 fixed`},
		{"fgrt-fixed label without the fixes", func(s *study.Study) {
			s.Methods = []study.MethodSpec{{Name: "fgrt", Label: "fgrt-fixed", Params: map[string]string{"fix_q1": "true"}}}
		}, `it needs method fgrt with fix_q1 and fix_q2 "true"`},
		{"protocol listed twice", func(s *study.Study) { s.Protocols = []string{"clean", "clean"} }, `protocol "clean" is listed twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testStudy()
			c.mutate(&s)
			out := filepath.Join(t.TempDir(), "out")
			r := &Runner{Load: load, OutDir: out, Jobs: 2}
			sum, err := r.Run(context.Background(), s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			if sum.Ran != 0 || sum.Failed != 0 {
				t.Fatalf("units ran before the refusal: %+v", sum)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatalf("output directory exists after a refused run (%v)", err)
			}
		})
	}
}

// TestCheckClassesFollowsStratifiedKFold pins the rule against
// scikit-learn's StratifiedKFold: an error when no class has k members,
// accepted (sklearn warns) when only some classes are smaller than k.
func TestCheckClassesFollowsStratifiedKFold(t *testing.T) {
	cases := []struct {
		sizes []int
		k     int
		ok    bool
	}{
		{[]int{41, 20, 13, 4, 8, 5, 10}, 5, true}, // zoo: smallest class 4 < 5 folds, as in the paper
		{[]int{5, 2}, 5, true},
		{[]int{4, 4}, 5, false},
		{[]int{4, 4}, 4, true},
		{[]int{10, 1}, 2, false},
		{[]int{10}, 2, false},
	}
	for _, c := range cases {
		err := CheckClasses(classSizes("d", c.sizes, 0), c.k)
		if (err == nil) != c.ok {
			t.Errorf("sizes %v, k %d: got %v, want ok=%v", c.sizes, c.k, err, c.ok)
		}
	}
}
