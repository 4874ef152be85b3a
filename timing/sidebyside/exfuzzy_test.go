package sidebyside

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExFuzzyModules checks where the Ex-Fuzzy modules are found: the
// directory given, or ex_fuzzy/ex_fuzzy of a checkout; anything else is
// one error naming the file it looked for.
func TestExFuzzyModules(t *testing.T) {
	root := t.TempDir()
	flat := filepath.Join(root, "flat")
	checkout := filepath.Join(root, "checkout")
	nested := filepath.Join(checkout, "ex_fuzzy", "ex_fuzzy")
	empty := filepath.Join(root, "empty")
	for _, d := range []string{flat, nested, empty, filepath.Join(root, "dirfile", "tree_learning.py")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{flat, nested} {
		if err := os.WriteFile(filepath.Join(d, "tree_learning.py"), []byte("# stand-in\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ dir, want, err string }{
		{flat, flat, ""},
		{checkout, nested, ""},
		{nested, nested, ""},
		{empty, "", "holds no tree_learning.py"},
		{filepath.Join(root, "dirfile"), "", "holds no tree_learning.py"},
		{filepath.Join(root, "absent"), "", "holds no tree_learning.py"},
	} {
		got, err := ExFuzzyModules(tc.dir)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ExFuzzyModules(%s) = %q, %v; want %q, error with %q", tc.dir, got, err, tc.want, tc.err)
		}
	}
}
