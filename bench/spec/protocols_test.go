package spec

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/study"
)

// TestMethodProtocolsSpec checks a method's protocols: key in both
// formats: the restricted method forms units under its protocols only;
// a wrong restriction is one line naming the method.
func TestMethodProtocolsSpec(t *testing.T) {
	for _, tc := range []struct {
		name, format, text string
		units              map[string]int // label|protocol → units; nil: refused
		err                string
	}{
		{"yaml", "yaml", "protocols: [paper, clean]\ndatasets: [wine]\nmethods:\n  - {name: cart}\n  - {name: fuzzycart, protocols: [clean]}\n",
			map[string]int{"cart|paper": 5, "cart|clean": 5, "fuzzycart|clean": 5}, ""},
		{"json", "json", `{"protocols":["paper","clean"],"datasets":["wine"],"methods":[{"name":"cart","protocols":["paper"]},{"name":"majority"}]}`,
			map[string]int{"cart|paper": 5, "majority|paper": 5, "majority|clean": 5}, ""},
		{"none the study runs", "yaml", "protocols: [paper]\ndatasets: [wine]\nmethods: [{name: fuzzycart, protocols: [clean]}]\n",
			nil, "method fuzzycart runs under clean only, which the study (protocols paper) does not run"},
		{"unknown protocol", "yaml", "protocols: [clean]\ndatasets: [wine]\nmethods: [{name: cart, protocols: [clean, kfold]}]\n",
			nil, "method cart:"},
		{"misspelt key", "yaml", "protocols: [clean]\ndatasets: [wine]\nmethods: [{name: cart, protocol: [clean]}]\n",
			nil, "line 3: unknown key protocol"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.text), tc.format)
			if tc.units == nil {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("err %v, want one line saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			us, err := study.UnitsOf(s)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, u := range us {
				got[u.Label+"|"+u.Protocol]++
			}
			if len(got) != len(tc.units) {
				t.Errorf("units %v, want %v", got, tc.units)
			}
			for k, n := range tc.units {
				if got[k] != n {
					t.Errorf("%s: %d units, want %d (all: %v)", k, got[k], n, got)
				}
			}
		})
	}
}
