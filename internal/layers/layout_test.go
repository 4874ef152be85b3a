package layers

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeLayoutMatchesTheTable: README.md's Layout draws every package
// of the module in the layer the table places it in, and the table's
// layers in its order. When it fails, each message says the line to add
// or change.
func TestReadmeLayoutMatchesTheTable(t *testing.T) {
	pkgs, _ := moduleImports(t)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range CheckLayout(string(readme), Table, pkgs) {
		t.Error(p)
	}
}

// TestCheckLayout shows the check failing, with the fix in its message,
// on made-up layouts.
func TestCheckLayout(t *testing.T) {
	table := []Layer{
		{"top", []string{"cmd/..."}, []string{"base"}},
		{"mid", []string{"mid/..."}, []string{"base"}},
		{"base", []string{"base", "internal/..."}, []string{"base"}},
	}
	pkgs := []string{"cmd/x", "mid/a", "mid/b", "base", "internal/u"}
	block := func(lines ...string) string {
		return "# t\n\n## Layout\n\nprose\n\n```\n" + strings.Join(lines, "\n") + "\n```\n\n## Next\n"
	}
	for _, tc := range []struct {
		name   string
		readme string
		pkgs   []string
		want   []string // the messages, in order (substrings); none = clean
	}{
		{"clean", block("top  cmd/x", "mid  mid/a", "     mid/b", "base base  internal/u"), pkgs, nil},
		{"an empty layer line", block("top  cmd/x", "mid", "base base  internal/u"), []string{"cmd/x", "base", "internal/u"}, nil},
		{"new package", block("top  cmd/x", "mid  mid/a", "base base  internal/u"), pkgs,
			[]string{"README.md: the Layout block lacks mid/b: add it to the line of layer mid"}},
		{"unplaced package", block("top  cmd/x", "mid  mid/a mid/b", "base base  internal/u"), append(pkgs, "stray/p"),
			[]string{"lacks stray/p, which no layer of internal/layers' table places"}},
		{"wrong layer", block("top  cmd/x mid/b", "mid  mid/a", "base base  internal/u"), pkgs,
			[]string{"README.md:8: mid/b is drawn in layer top but the table places it in mid: move it to the line of mid"}},
		{"stale package", block("top  cmd/x cmd/gone", "mid  mid/a mid/b", "base base  internal/u"), pkgs,
			[]string{"README.md:8: cmd/gone (layer top) is no package of the module: remove it"}},
		{"drawn twice", block("top  cmd/x", "mid  mid/a mid/b", "     mid/a", "base base  internal/u"), pkgs,
			[]string{"README.md:9: mid/a is drawn again (first at line 9): keep one"}},
		{"missing layer", block("top  cmd/x", "base base  internal/u"), []string{"cmd/x", "base", "internal/u"},
			[]string{"the Layout block has no line for layer mid: add one, after the line of top"}},
		{"unknown layer", block("top  cmd/x", "mid  mid/a mid/b", "middle", "base base  internal/u"), pkgs,
			[]string{"README.md:10: middle is no layer of internal/layers' table (its layers: top, mid, base)"}},
		{"order", block("mid  mid/a mid/b", "top  cmd/x", "base base  internal/u"), pkgs,
			[]string{"draws the layers as mid, top, base; the table orders them top, mid, base"}},
		{"folder", block("top  cmd/...", "mid  mid/...", "base base  internal/..."), pkgs, nil},
		{"a new package in a drawn folder", block("top  cmd/x", "mid  mid/...", "base base  internal/u"), append(pkgs, "mid/c/d"), nil},
		{"folder and package", block("top  cmd/x", "mid  mid/... mid/b", "base base  internal/u"), pkgs,
			[]string{"README.md:9: mid/b is drawn again (first at line 9): keep one"}},
		{"folder of another layer", block("top  cmd/x mid/...", "mid", "base base  internal/u"), pkgs,
			[]string{"README.md:8: mid/... holds no package the table places in layer top: remove it",
				"the Layout block lacks mid/a: add it to the line of layer mid",
				"the Layout block lacks mid/b: add it to the line of layer mid"}},
		{"folder covers its layer only", block("top  cmd/x", "mid  mid/a mid/b", "base base/...  internal/u"), append(pkgs, "base/mid"),
			[]string{"README.md: the Layout block lacks base/mid, which no layer"}},
		{"no section", "# t\n\n```\ntop cmd/x\n```\n", pkgs, []string{`README.md has no "## Layout" section`}},
		{"no block", "## Layout\n\nprose\n", pkgs, []string{"README.md:1: the ## Layout section has no ``` block"}},
		{"indented first", block("  cmd/x"), pkgs, []string{"README.md:8: an indented line before the first layer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckLayout(tc.readme, table, tc.pkgs)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d messages %q, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("message %q does not say %q", got[i], w)
				}
			}
		})
	}
}
