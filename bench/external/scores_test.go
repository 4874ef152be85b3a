package external

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestReadScores: the optional scores.csv maps its columns to the schema's
// classes by name; damage is one line naming the file, and an absent file
// means no scores.
func TestReadScores(t *testing.T) {
	s := learn.Schema{Classes: []string{"a", "b"}}
	cases := []struct {
		name, file string
		want       [][]float64
		err        string
	}{
		{"absent", "", nil, ""},
		{"in schema order", "a,b\n0.9,0.1\n0.2,0.8\n", [][]float64{{0.9, 0.1}, {0.2, 0.8}}, ""},
		{"columns reordered", "b,a\n0.1,0.9\n0.8,0.2\n", [][]float64{{0.9, 0.1}, {0.2, 0.8}}, ""},
		{"unknown class", "a,c\n1,0\n0,1\n", nil, `header column 2 "c" is not a class`},
		{"repeated class", "a,a\n1,0\n0,1\n", nil, "repeats one"},
		{"too few rows", "a,b\n1,0\n", nil, "has 1 score rows for 2 test rows"},
		{"too many rows", "a,b\n1,0\n0,1\n1,1\n", nil, "more than 2 score rows"},
		{"not a number", "a,b\n1,x\n0,1\n", nil, `line 2 column 2: "x" is not a finite number`},
		{"NaN", "a,b\n1,NaN\n0,1\n", nil, "not a finite number"},
		{"wrong width", "a,b\n1,0,3\n0,1\n", nil, "wrong number of fields"},
		{"too large", "a,b\n" + strings.Repeat("0.5,0.5\n", 2000), nil, "is larger than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ScoresFile)
			if c.file != "" {
				if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := readScores(path, 2, s)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), ScoresFile) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line with %q", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, %v; want %v", got, err, c.want)
			}
		})
	}
	// A symbolic link in its place is refused, never followed.
	dir := t.TempDir()
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, ScoresFile)); err != nil {
		t.Skip(err)
	}
	if _, err := readScores(filepath.Join(dir, ScoresFile), 2, s); err == nil {
		t.Error("a symbolic link was read")
	}
}

// TestScoresOnlyForTheScoredRows: Scores answers for the rows of the last
// run only.
func TestScoresOnlyForTheScoredRows(t *testing.T) {
	X := [][]float64{{1}, {math.NaN()}} // a missing value is the same value
	m := &Model{scores: [][]float64{{1, 0}, {0, 1}}, scoredX: X}
	if got := m.Scores(X); len(got) != 2 {
		t.Errorf("Scores of the scored rows: %v", got)
	}
	if got := m.Scores([][]float64{{1}, {math.NaN()}}); len(got) != 2 {
		t.Errorf("Scores of the same rows in another slice: %v", got)
	}
	if got := m.Scores([][]float64{{1}, {3}}); got != nil {
		t.Errorf("Scores of other rows: %v", got)
	}
}
