package fgrt

import (
	"math"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/learn"
)

// TestReferencePartitions: the partitions a figure draws are exactly those
// the reference trainers build (FGRT's default, FGRT*'s grid-optimised),
// for the feature asked; a feature index outside the schema is refused.
func TestReferencePartitions(t *testing.T) {
	var X [][]float64
	var y []int
	for i := 0; i < 90; i++ {
		X = append(X, []float64{float64(i%7) + 0.1*float64(i), float64(i) + 0.5*math.Sin(float64(i))})
		y = append(y, i/30)
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "u"}, {Name: "v"}}, Classes: []string{"p", "q", "r"}}
	opt := DefaultConfig()
	opt.Optimize, opt.Strategy = true, partopt.Grid
	for j := range s.Features {
		plain, optimised, err := ReferencePartitions(X, y, s, j)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			cfg  Config
			got  any
		}{{"default", DefaultConfig(), plain}, {"optimised", opt, optimised}} {
			tr, err := New(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			parts, _, err := tr.Partitions(X, y, s)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.got, parts[j]) {
				t.Errorf("feature %d, %s: %+v, want the trainer's %+v", j, c.name, c.got, parts[j])
			}
		}
		if reflect.DeepEqual(plain, optimised) {
			t.Errorf("feature %d: the optimised partition equals the default one", j)
		}
	}
	if _, _, err := ReferencePartitions(X, y, s, 2); err == nil {
		t.Error("feature 2 of 2: no error")
	}
}
