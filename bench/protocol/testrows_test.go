package protocol

import (
	"math"
	"testing"
)

// TestFoldsNameTheirFileRows: every protocol's test rows name their rows of
// the dataset file (missing-value rows counted), each exactly once per
// repeat, and Unscale maps the learners' values back to the file's.
func TestFoldsNameTheirFileRows(t *testing.T) {
	d := synthetic(120)
	o := DefaultOptions()
	for _, proto := range []Protocol{Paper{}, Clean{}, Holdout{}} {
		p, err := proto.Plan(d, o)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[[2]int]bool{}
		for _, f := range p.Folds {
			_, xte := f.Matrices(nil) // a clean fold is a view: its rows are scaled on demand
			if len(f.TestRows) != len(xte) || f.Unscale == nil {
				t.Fatalf("%s fold %d: %d test rows named for %d", proto.Name(), f.Index, len(f.TestRows), len(xte))
			}
			for i, src := range f.TestRows {
				if seen[[2]int{f.Repeat, src}] {
					t.Errorf("%s: file row %d tested twice in repeat %d", proto.Name(), src, f.Repeat)
				}
				seen[[2]int{f.Repeat, src}] = true
				if d.Y[src] != f.YTest[i] {
					t.Errorf("%s fold %d row %d: file row %d has class %d, the fold %d", proto.Name(), f.Index, i, src, d.Y[src], f.YTest[i])
				}
				for _, j := range []int{0, 1} { // numeric columns (the paper recodes nominal ones)
					if got, want := f.Unscale(j, xte[i][j]), d.X[src][j]; math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
						t.Errorf("%s fold %d row %d column %d: unscaled %v, file %v", proto.Name(), f.Index, i, j, got, want)
					}
				}
				if v := f.Unscale(2, 1.5); v != 1.5 {
					t.Errorf("%s: an unscaled column changed under Unscale: %v", proto.Name(), v)
				}
			}
		}
	}
}
