package centroid_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository root, seen from this package's directory.
const root = "../.."

// marker introduces a code block of the guide: the block that follows is
// copied from the named file.
var marker = regexp.MustCompile("(?m)^<!-- from (\\S+) -->\n```go\n((?s:.*?))```\n")

// TestGuideFollowsTheCode: every Go code block of docs/adding-a-learner.md
// names its file and is copied verbatim from it, so the guide cannot drift
// from the example it teaches; the Version rule it states is the one
// learn.Spec documents; and the number of files it promises is the number
// the example took.
func TestGuideFollowsTheCode(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "adding-a-learner.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	blocks := marker.FindAllStringSubmatch(text, -1)
	if fences := strings.Count(text, "```go\n"); len(blocks) != fences || fences == 0 {
		t.Fatalf("%d Go code blocks, %d of them name their file", fences, len(blocks))
	}
	for _, b := range blocks {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(b[1])))
		if err != nil {
			t.Errorf("block from %s: %v", b[1], err)
			continue
		}
		if !strings.Contains(string(src), b[2]) {
			t.Errorf("block from %s is not in the file:\n%s", b[1], b[2])
		}
	}

	// The bump rule, as the guide words it, is learn.Spec's (modulo the
	// comment markers and line breaks).
	spec, err := os.ReadFile(filepath.Join(root, "learn", "spec.go"))
	if err != nil {
		t.Fatal(err)
	}
	flat := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "//", "")), " ") }
	const rule = "bump Version in the same change that alters what the learner computes for some input and configuration (predictions, the fitted model, its complexity counts, how it uses the seed); leave it alone for changes that cannot alter a result row (speed, refactoring, messages, documentation)."
	for name, s := range map[string]string{"guide": text, "learn/spec.go": string(spec)} {
		if !strings.Contains(flat(s), rule) {
			t.Errorf("%s does not state the Version rule %q", name, rule)
		}
	}

	// The example took three files: the learner with its spec, its
	// conformance test, and the file with its registration line (this
	// test keeps the guide honest and is not part of adding a learner).
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if e.Name() != "doc_test.go" {
			files = append(files, e.Name())
		}
	}
	if len(files) != 3 || !strings.Contains(text, "touches **3 files**") {
		t.Errorf("the example has %d files %v; the guide promises 3", len(files), files)
	}
}
