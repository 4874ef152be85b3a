package partitions

import (
	"math"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/internal/sksplit"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/plots"
)

// TestData: the default and optimised partitions of a numeric
// feature differ and draw; nominal and unknown features are refused.
func TestData(t *testing.T) {
	// Three classes along x0; x1 is nominal.
	var X [][]float64
	var y []int
	for i := 0; i < 90; i++ {
		X = append(X, []float64{float64(i) + 0.5*math.Sin(float64(i)), float64(i % 2)})
		y = append(y, i/30)
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "v"}, {Name: "flag", Nominal: true, Categories: []string{"a", "b"}}}, Classes: []string{"p", "q", "r"}}
	d, err := Data(X, y, s, "v")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Terms, []string{"Low", "Medium", "High"}) || len(d.Default) != 3 || len(d.Optimised) != 3 || len(d.Values) != 90 {
		t.Fatalf("%+v", d)
	}
	if d.Default[0] == d.Optimised[0] && d.Default[1] == d.Optimised[1] {
		t.Error("optimised partition equals the default one")
	}
	if err := plots.MembershipFigure(t.TempDir(), "m", d); err != nil {
		t.Error(err)
	}
	if _, err := Data(X, y, s, "flag"); err == nil {
		t.Error("nominal feature: no error")
	}
	if _, err := Data(X, y, s, "nope"); err == nil {
		t.Error("unknown feature: no error")
	}
}

// TestScalingOf: the partitions figure undoes the paper protocol's
// scaling of exactly the feature drawn, and of no unscaled feature.
func TestScalingOf(t *testing.T) {
	prep := &paperprep.Prepared{
		Schema: learn.Schema{Features: []learn.Feature{{Name: "a"}, {Name: "flag", Nominal: true}, {Name: "c"}}},
		Scaler: &sksplit.StandardScaler{Cols: []int{0, 2}, Mean: []float64{10, 700}, Scale: []float64{2, 300}},
	}
	for _, tc := range []struct {
		feature string
		want    plots.Standardisation
		ok      bool
	}{{"a", plots.Standardisation{Mean: 10, Scale: 2}, true}, {"c", plots.Standardisation{Mean: 700, Scale: 300}, true}, {"flag", plots.Standardisation{}, false}} {
		got, ok := scalingOf(prep, tc.feature)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %+v %v, want %+v %v", tc.feature, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := scalingOf(&paperprep.Prepared{}, "a"); ok {
		t.Error("no scaler: a scaling")
	}
}
