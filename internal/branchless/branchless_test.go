package branchless

import "testing"

func TestInt(t *testing.T) {
	for _, c := range []struct {
		in   bool
		want int
	}{{true, 1}, {false, 0}} {
		if got := Int(c.in); got != c.want {
			t.Errorf("Int(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}
