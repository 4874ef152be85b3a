package command

import "testing"

// TestNearest: a misspelt or abbreviated name finds the name meant, and a
// word near nothing finds none.
func TestNearest(t *testing.T) {
	names := []string{"out", "results", "no-report", "datasets", "j"}
	for _, c := range []struct{ word, want string }{
		{"otu", "out"}, {"reslts", "results"}, {"no-rep", "no-report"}, {"dataset", "datasets"},
		{"J", "j"}, {"x", "j"}, {"zzzzzz", ""}, {"resultsdir", "results"}, {"frobnicate", ""},
	} {
		if got := Nearest(c.word, names); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"out", "out", 0}} {
		if got := editDistance(c.a, c.b); got != c.d || editDistance(c.b, c.a) != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
