package learn

import (
	"math"
	"strings"
	"testing"
)

func TestReadableNumber(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{757.04, "757.0"},
		{756.9999999999, "757.0"},
		{0.5, "0.5000"},
		{-0.656396, "-0.6564"},
		{0.0180732, "0.01807"},
		{1.5, "1.500"},
		{12345.6, "12346"},
		{999.96, "1000"},   // rounds up across a power of ten
		{9.99996, "10.00"}, // likewise, and keeps 4 significant digits
		{0.00012346, "0.0001235"},
		{0.0001, "0.0001000"},
		{0.00009999, "9.999e-05"},
		{999999.4, "999999"},
		{999999.7, "1000000"},
		{1234567, "1.235e+06"},
		{-1234567, "-1.235e+06"},
		{1e-7, "1.000e-07"},
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{math.Inf(1), "+Inf"},
		{math.NaN(), "NaN"},
	} {
		if got := ReadableNumber(c.v); got != c.want {
			t.Errorf("ReadableNumber(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestIntervalConditions(t *testing.T) {
	num := func(_ int, v float64) string { return ReadableNumber(v) }
	le := func(j int, name string, v float64) PathTest { return PathTest{Feature: j, Name: name, Threshold: v} }
	gt := func(j int, name string, v float64) PathTest {
		return PathTest{Feature: j, Name: name, Threshold: v, Above: true}
	}
	for _, c := range []struct {
		name  string
		tests []PathTest
		want  string
	}{
		{"one test", []PathTest{le(0, "a", 1)}, "a <= 1.000"},
		{"the tighter upper bound", []PathTest{le(0, "worst_area", 957.4), le(0, "worst_area", 806.2)}, "worst_area <= 806.2"},
		{"the tighter lower bound", []PathTest{gt(0, "a", 1), gt(0, "a", 3), gt(0, "a", 2)}, "a > 3.000"},
		{"an interval", []PathTest{gt(0, "worst_area", 806.2), le(0, "worst_area", 957.4)}, "806.2 < worst_area <= 957.4"},
		{"at the first test's place", []PathTest{le(1, "b", 5), gt(0, "a", 1), gt(1, "b", 2), le(0, "a", 4)},
			"2.000 < b <= 5.000 AND 1.000 < a <= 4.000"},
		{"nominal tests kept in place", []PathTest{le(0, "a", 1), {Feature: 2, Text: "colour = red"}, le(0, "a", 0.5)},
			"a <= 0.5000 AND colour = red"},
	} {
		if got := strings.Join(IntervalConditions(c.tests, num), " AND "); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDefaultRule(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"IF a THEN class 1\nELSE class 2  [coverage 0.100, confidence 0.500]\n# note\n", "ELSE class 2  [coverage 0.100, confidence 0.500]"},
		{"IF a THEN class 1\n", ""},
		{"IF ELSE THEN class 1\n", ""},
	} {
		if got := DefaultRule(c.text); got != c.want {
			t.Errorf("DefaultRule(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestStatsShown(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"IF a THEN class 1  [coverage 0.100, confidence 0.500]", "IF b THEN class 2  [coverage 0.900, confidence 1.000]"}, "coverage and confidence"},
		{[]string{"IF a THEN class 1  [coverage 0.296]"}, "coverage"},
		{[]string{"IF a THEN class 1  [coverage 0.100, confidence 0.500]", "IF b THEN class 2"}, ""},
		{[]string{"IF Proline=>1255 THEN class 1"}, ""},
		{[]string{"IF a THEN class 1  [coverage 0.100, confidence 0.500]", "IF b THEN class 2  [coverage 0.296]"}, ""},
		{nil, ""},
	} {
		if got := StatsShown(c.lines); got != c.want {
			t.Errorf("StatsShown(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
}
