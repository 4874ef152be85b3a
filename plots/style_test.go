package plots

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
)

// styleKey is what a reader tells methods apart by.
func styleKey(s MethodStyle) string {
	return fmt.Sprintf("%v|%T%v|%v", s.Color, s.Marker, s.Marker, s.Dashes)
}

func TestMethodStylesDistinctAndConsistent(t *testing.T) {
	var order []string
	for i := 0; i < 16; i++ {
		order = append(order, fmt.Sprintf("m%02d", i))
	}
	pres := results.Presentation{Order: order}
	all := methodStyles(pres, order)
	seen := map[string]string{}
	for _, m := range order {
		k := styleKey(all[m])
		if other, dup := seen[k]; dup {
			t.Fatalf("%s and %s share style %s", m, other, k)
		}
		seen[k] = m
	}
	if len(seen) != 16 {
		t.Fatalf("%d distinct styles for 16 methods", len(seen))
	}
	// Colour and marker alone (no dashes) must already separate them: a
	// scatter has no lines.
	pairs := map[string]bool{}
	for _, m := range order {
		pairs[fmt.Sprintf("%v|%T%v", all[m].Color, all[m].Marker, all[m].Marker)] = true
	}
	if len(pairs) != 16 {
		t.Errorf("%d distinct (colour, marker) pairs for 16 methods, want 16", len(pairs))
	}
	for _, subset := range [][]string{{"m15"}, {"m03", "m11"}, {"m09", "m01", "m14", "m00"}, order[8:]} {
		got := methodStyles(pres, subset)
		for _, m := range subset {
			if !reflect.DeepEqual(got[m], all[m]) {
				t.Errorf("subset %v: %s drawn as %s, in the full figure as %s", subset, m, styleKey(got[m]), styleKey(all[m]))
			}
		}
	}
}

func TestMethodStylesUnknownAndVariants(t *testing.T) {
	pres := results.Presentation{Order: []string{"fgrt", "cart"}}
	tests := []struct {
		name   string
		labels []string
	}{
		{"variant beside its base", []string{"fgrt", "fgrt@ofat", "cart"}},
		{"labels the order does not know", []string{"zeta", "alpha", "cart"}},
		{"many variants", []string{"fgrt@a", "fgrt@b", "fgrt@c", "fgrt"}},
	}
	for _, tc := range tests {
		got := methodStyles(pres, tc.labels)
		seen := map[string]bool{}
		for _, l := range tc.labels {
			k := styleKey(got[l])
			if seen[k] {
				t.Errorf("%s: %s shares its style", tc.name, l)
			}
			seen[k] = true
		}
		if s, ok := got["cart"]; ok && s.Slot != 1 {
			t.Errorf("%s: cart in slot %d, want its place in the order (1)", tc.name, s.Slot)
		}
		if s, ok := got["fgrt"]; ok && s.Slot != 0 {
			t.Errorf("%s: fgrt in slot %d, want 0", tc.name, s.Slot)
		}
	}
	// Completed with the study's labels, a variant's style no longer
	// depends on whether its base is drawn.
	full := completePresentation(pres, []string{"fgrt@ofat", "ripper", "fgrt", "cart"})
	if want := []string{"fgrt", "cart", "ripper", "fgrt@ofat"}; !reflect.DeepEqual(full.Order, want) {
		t.Fatalf("completed order %v, want %v", full.Order, want)
	}
	alone := methodStyles(full, []string{"fgrt@ofat"})["fgrt@ofat"]
	beside := methodStyles(full, []string{"fgrt", "fgrt@ofat"})["fgrt@ofat"]
	if alone.Slot != beside.Slot || alone.Slot != 3 {
		t.Errorf("fgrt@ofat in slot %d alone and %d beside fgrt, want 3 both", alone.Slot, beside.Slot)
	}
}
