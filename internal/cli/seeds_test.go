package cli

import "testing"

func TestStochasticMethods(t *testing.T) {
	got := stochasticMethods()
	for m, want := range map[string]bool{"fga": true, "ripper": true, "cart": false, "fgrt": false, "c45": false} {
		if got[m] != want {
			t.Errorf("%s stochastic = %v, want %v", m, got[m], want)
		}
	}
}
