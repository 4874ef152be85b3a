package artifacts

import (
	"strings"
	"testing"
)

func TestCornerText(t *testing.T) {
	for _, c := range []struct {
		v, width float64
		want     string
	}{
		{2.8600000000000003, 2.58, "2.86"},     // a quantile: no float noise
		{1.2797609482368046, 2.58, "1.27976"},  // 1.28 less ε·sd: not rounded back onto 1.28
		{277.96846, 347.2, "277.9685"},         // Proline's minimum 278 less ε·sd
		{13.000239051763197, 7.75, "13.00024"}, // the maximum 13 plus ε·sd
		{-6.598982e-06, 0.05, "-6.599e-06"},    // a minimum of 0 less ε·sd
		{70, 24.4, "70"},                       // a data value
		{1680.0316, 930, "1680.032"},           // the corner within a millionth of the width
		{5, 0, "5"},                            // a term of no width: its magnitude
		{0, 3, "0"},                            // zero
		{123456.7891, 1, "123456.7891"},        // large magnitude, narrow term
	} {
		if got := CornerText(c.v, c.width); got != c.want {
			t.Errorf("CornerText(%v, %v) = %q, want %q", c.v, c.width, got, c.want)
		}
	}
}

func TestFormatPartitionsNote(t *testing.T) {
	cat := 1.0
	for _, c := range []struct {
		name     string
		terms    []NamedTerm
		want     []string
		wantNote bool
	}{
		{"fuzzy", []NamedTerm{{Feature: "ColorIntensity", Term: "Low", Trapezoid: []float64{1.2797609482368046, 1.2797609482368046, 2.8600000000000003, 3.8640000000000003}}},
			[]string{"ColorIntensity  Low   (1.27976, 1.27976, 2.86, 3.864)"}, true},
		{"crisp only", []NamedTerm{{Feature: "sex", Term: "male", Category: &cat}}, []string{"sex      male  = 1"}, false},
		{"none", nil, []string{"(the rules use no fuzzy partition)"}, false},
	} {
		got := FormatPartitions(c.terms)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no line %q in\n%s", c.name, w, got)
			}
		}
		if strings.Contains(got, PartitionsNote) != c.wantNote {
			t.Errorf("%s: note shown %v, want %v:\n%s", c.name, !c.wantNote, c.wantNote, got)
		}
	}
}
