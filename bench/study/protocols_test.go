package study

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
)

// TestMethodProtocols checks a method restricted to some of the study's
// protocols: it forms units under those only, the other methods' units
// and keys are those of the study without it, an unrestricted study's
// record has no protocols key, and bad restrictions are refused.
func TestMethodProtocols(t *testing.T) {
	sums := map[string]string{"wine": "w", "zoo": "z"}
	base := Study{Protocols: []string{"paper", "clean"}, Datasets: []string{"wine", "zoo"},
		Methods: []MethodSpec{{Name: "cart"}, {Name: "majority"}}, Options: protocol.DefaultOptions()}
	units := func(t *testing.T, s Study) []Unit {
		t.Helper()
		ms, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		_, us, err := s.Identity(ms, sums)
		if err != nil {
			t.Fatal(err)
		}
		return us
	}
	before := units(t, base)

	// An explicit restriction to every protocol is the unrestricted study.
	all := base
	all.Methods = []MethodSpec{{Name: "cart", Protocols: []string{"clean", "paper"}}, {Name: "majority"}}
	if got := units(t, all); len(got) != len(before) {
		t.Errorf("restriction to every protocol: %d units, want %d", len(got), len(before))
	}

	with := base
	with.Methods = append(append([]MethodSpec(nil), base.Methods...), MethodSpec{Name: "fuzzycart", Protocols: []string{"clean"}})
	after := units(t, with)
	keys := map[string]bool{}
	perProtocol := map[string]int{}
	for _, u := range after {
		keys[u.Key] = true
		if u.Label == "fuzzycart" {
			perProtocol[u.Protocol]++
		}
	}
	if perProtocol["paper"] != 0 || perProtocol["clean"] != 2*5 {
		t.Errorf("fuzzycart units per protocol %v, want clean 10 (2 datasets x 5 folds), paper 0", perProtocol)
	}
	for _, u := range before {
		if !keys[u.Key] {
			t.Errorf("unit %s of the study without fuzzycart has another key with it", u.Key)
		}
	}
	if len(after) != len(before)+10 {
		t.Errorf("%d units with fuzzycart, want %d", len(after), len(before)+10)
	}

	// The record of an unrestricted method is as before the field existed.
	rec, err := json.Marshal(base.Methods[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(rec) != `{"name":"cart"}` {
		t.Errorf("unrestricted method record %s", rec)
	}

	for _, tc := range []struct {
		name      string
		protocols []string
		want      string
	}{
		{"empty list", []string{}, "protocols lists none"},
		{"unknown", []string{"clean", "kfold"}, "kfold"},
		{"twice", []string{"clean", "clean"}, `protocol "clean" is listed twice`},
		{"none the study runs", []string{"holdout"}, "method cart runs under holdout only, which the study (protocols paper, clean) does not run"},
	} {
		s := base
		s.Methods = []MethodSpec{{Name: "cart", Protocols: tc.protocols}}
		_, err := s.Resolve()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestProtocolRevisionInTheKeys: the groups whose preparation changed rows
// (holdout's training-part nominal codes; the imputed mean under clean
// and holdout; clean's per-fold codes of a CSV file's undeclared
// categories) carry their protocol's revision, so a directory of earlier
// rows is another study; the others keep the keys they had (those of the
// build before revisions existed, pinned).
func TestProtocolRevisionInTheKeys(t *testing.T) {
	impute := protocol.DefaultOptions()
	impute.Missing = protocol.MissingImpute
	cases := []struct {
		protocol string
		o        protocol.Options
		dataset  string
		revision int
		was      string // the unit's key before revisions ("" when not pinned)
	}{
		{"paper", protocol.DefaultOptions(), "wine", 0, "paper/wine/majority#c58f68a294f30eff/r0/f0/s42"},
		{"clean", protocol.DefaultOptions(), "wine", 0, "clean/wine/majority#a0311223e6c1b66c/r0/f0/s42"},
		{"clean", impute, "wine", 1, ""},
		{"holdout", protocol.DefaultOptions(), "wine", 1, "holdout/wine/majority#f1465a2188598a3f/r0/f0/s33"},
		{"holdout", impute, "wine", 1, ""},
		{"clean", protocol.DefaultOptions(), "mine.CSV", 1, ""},
		{"clean", protocol.DefaultOptions(), "mine.arff", 0, ""},
		{"paper", protocol.DefaultOptions(), "mine.csv", 0, ""},
	}
	for _, c := range cases {
		s := Study{Protocols: []string{c.protocol}, Datasets: []string{c.dataset}, Methods: []MethodSpec{{Name: "majority"}}, Options: c.o}
		ms, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		id, us, err := s.Identity(ms, map[string]string{c.dataset: "w"})
		if err != nil {
			t.Fatal(err)
		}
		if got := id.Groups[0].ProtocolRevision; got != c.revision {
			t.Errorf("%s on %s (missing %q): revision %d, want %d", c.protocol, c.dataset, c.o.Missing, got, c.revision)
		}
		if c.was != "" && (us[0].Key == c.was) != (c.revision == 0) {
			t.Errorf("%s (missing %q): key %s, before revisions %s; revision %d", c.protocol, c.o.Missing, us[0].Key, c.was, c.revision)
		}
	}
}
