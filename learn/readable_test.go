package learn

import (
	"math"
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
