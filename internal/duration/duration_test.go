package duration

import (
	"strings"
	"testing"
	"time"
)

func TestParsePositive(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		err  string // "" = accepted
	}{
		{"90s", 90 * time.Second, ""},
		{"1h30m", 90 * time.Minute, ""},
		{"+2m", 2 * time.Minute, ""},
		{".5s", 500 * time.Millisecond, ""},
		{"2562047h47m16.854775807s", Max, ""},
		{"2562047h47m16.854775808s", 0, "out of range"},
		{"99999999999h", 0, "out of range"},
		{"9223372036854775808ns", 0, "out of range"},
		{"-99999999999h", 0, "out of range"},
		{"0", 0, "not positive"},
		{"0s", 0, "not positive"},
		{"-1s", 0, "not positive"},
		{"abc", 0, "not a duration"},
		{"10", 0, "not a duration"},
		{"1e400s", 0, "not a duration"},
		{"", 0, "not a duration"},
		{"5 m", 0, "not a duration"},
	} {
		got, err := ParsePositive(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParsePositive(%q) = %v, %v; want %v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), `"`+c.in+`"`)):
			t.Errorf("ParsePositive(%q) error = %v; want one quoting it and saying %q", c.in, err, c.err)
		}
	}
}
