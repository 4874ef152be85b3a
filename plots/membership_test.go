package plots

import "testing"

func membershipData() MembershipData {
	return MembershipData{
		Feature: "proline",
		Terms:   []string{"Low", "Medium", "High"},
		// Quantile shape (Low and High with vertical outer shoulders).
		Default: [][4]float64{{-1.5001, -1.5001, -0.8, -0.3}, {-0.8, -0.3, 0.2, 0.9}, {0.2, 0.9, 2.9701, 2.9701}},
		// An optimised partition whose Low starts exactly at the minimum
		// (quirk Q3: the minimum is in no set).
		Optimised: [][4]float64{{-1.5, -1.5, -0.5, 0.1}, {-0.6, 0.0, 0.4, 1.2}, {0.5, 1.4, 2.97, 2.97}},
		Values:    []float64{-1.5, -1.2, -1.0, -0.7, -0.5, -0.5, -0.2, 0, 0.3, 0.8, 1.1, 1.9, 2.97},
		XLabel:    "proline (standardised)",
	}
}

func TestMembershipGolden(t *testing.T) {
	checkFigure(t, "membership", func(dir, name string) error { return MembershipFigure(dir, name, membershipData()) })
}

func TestMembershipBadInput(t *testing.T) {
	d := membershipData()
	d.Optimised = d.Optimised[:2]
	if err := MembershipFigure(t.TempDir(), "x", d); err == nil {
		t.Error("two optimised sets for three terms: no error")
	}
	d = membershipData()
	d.Default[1] = [4]float64{1, 0, 2, 3}
	if err := MembershipFigure(t.TempDir(), "x", d); err == nil {
		t.Error("unordered corners: no error")
	}
	if err := MembershipFigure(t.TempDir(), "x", MembershipData{}); err != ErrNoData {
		t.Errorf("empty: %v", err)
	}
}
