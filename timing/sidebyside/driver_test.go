//go:build unix

package sidebyside

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeInterpreter writes an executable that stands for Python (or Java):
// whatever it is asked to run, it runs script.
func fakeInterpreter(t *testing.T, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDriverAnswersAreChecked injects the faults of a foreign driver
// (scikit-learn's, Ex-Fuzzy's and Weka's): a clock that ran backwards, a
// time that is not a number, a negative count, and an output flood. Each
// is one error naming what was wrong, before any number reaches a table,
// and a flood is stopped at the cap rather than read to its end.
func TestDriverAnswersAreChecked(t *testing.T) {
	X := [][]float64{{0, 1}, {1, 0}, {2, 1}, {3, 0}}
	y := []int{0, 1, 0, 1}
	// A flood past foreign.OutputCap (64 MiB): finite, so that a build
	// without the cap fails the test instead of exhausting memory.
	flood := "head -c 100000000 /dev/zero | tr '\\0' 7"
	for _, c := range []struct {
		name, script, want string
	}{
		{"clock ran backwards", "echo -25.02 3", "-25.02 seconds is not a time"},
		{"NaN time", "echo nan 3", "NaN seconds is not a time"},
		{"infinite time", "echo inf 3", "+Inf seconds is not a time"},
		{"negative count", "echo 0.5 -4", "-4 is not a count"},
		{"words", "echo fast 3", `"fast" is not a number of seconds`},
		{"flood", flood, "printed more than 64 MiB on its standard output"},
	} {
		t.Run(c.name, func(t *testing.T) {
			py := fakeInterpreter(t, c.script)
			ctx := context.Background()
			_, _, err := Options{Python: py, Dir: t.TempDir()}.sklearn(ctx, X, y, "gini")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("scikit-learn driver: %v; want an error with %q", err, c.want)
			}
			_, _, err = ExFuzzyOptions{Python: py, Modules: t.TempDir(), Dir: t.TempDir()}.exFuzzy(ctx, X, y, []bool{false, false})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Ex-Fuzzy driver: %v; want an error with %q", err, c.want)
			}
			if err != nil && len(err.Error()) > 400 {
				t.Errorf("the error is %d bytes long; it quotes too much of the output", len(err.Error()))
			}
		})
	}
	// Weka: its own build time, checked the same way.
	for _, c := range []struct{ script, want string }{
		{"echo 'Time taken to build model: -250.5 seconds'", "-250.5 seconds is not a time"},
		{flood, "printed more than 64 MiB on its standard output"},
	} {
		java := fakeInterpreter(t, c.script)
		_, err := Options{Java: java, WekaJar: "weka.jar", Dir: t.TempDir()}.weka(context.Background(), X, y, "weka.classifiers.trees.J48")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Weka: %v; want an error with %q", err, c.want)
		}
	}
}
