package reporting

import (
	"slices"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestStochasticMethods: without method entries in the manifest the
// registry says which methods draw from their seed; with them, the entries
// do (the manifest, not the current registry, describes its results).
func TestStochasticMethods(t *testing.T) {
	got := Stochastic(nil)
	for m, want := range map[string]bool{"fga": true, "ripper": true, "cart": false, "fgrt": false, "c45": false} {
		if got[m] != want {
			t.Errorf("%s stochastic = %v, want %v", m, got[m], want)
		}
	}
	man := &manifest.Manifest{Methods: []results.Method{{Label: "cart", Method: "cart", Stochastic: true}, {Label: "fga", Method: "fga"}}}
	got = Stochastic(man)
	if !got["cart"] || got["fga"] || len(got) != 1 {
		t.Errorf("from the manifest's entries: %v, want only cart", got)
	}
}

// TestPresentation: an older manifest (no method entries) shows the
// registry's names and order, as reports did before the entries existed; a
// manifest's entries are used as recorded.
func TestPresentation(t *testing.T) {
	old := Presentation(&manifest.Manifest{}, []string{"fgrt-fixed", "cart@text", "mine"})
	for label, want := range map[string]string{"fgrt": "FGRT", "fgrt-opt": "FGRT*", "fgrt-fixed": "FGRT (Q1+Q2 fixed)", "cart@text": "CART@text", "mine": "mine"} {
		if got := old.DisplayName(label); got != want {
			t.Errorf("old manifest: DisplayName(%q) = %q, want %q", label, got, want)
		}
	}
	ms := []string{"mine", "fga", "fgrt-fixed", "cart", "fgrt"}
	old.Sort(ms)
	if got, want := ms, []string{"fgrt", "cart", "fga", "fgrt-fixed", "mine"}; !slices.Equal(got, want) {
		t.Errorf("old manifest order %v, want %v", got, want)
	}
	man := &manifest.Manifest{Methods: []results.Method{{Label: "b", Method: "b", DisplayName: "Bee", Order: 1}, {Label: "a", Method: "a", DisplayName: "Ay", Order: 0}}}
	p := Presentation(man, nil)
	if p.DisplayName("b@x") != "Bee@x" || p.DisplayName("fgrt") != "fgrt" {
		t.Errorf("from the entries: %q %q", p.DisplayName("b@x"), p.DisplayName("fgrt"))
	}
	ms = []string{"b", "a"}
	p.Sort(ms)
	if ms[0] != "a" {
		t.Errorf("from the entries: order %v", ms)
	}
}
