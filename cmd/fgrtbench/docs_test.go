package main

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// mdCitation matches a Markdown file named in a comment, with an optional
// anchor: docs/fidelity.md#quirks, docs/external.md, REPORT.md.
var mdCitation = regexp.MustCompile(`[A-Za-z0-9_./<>*-]*\.md(#[A-Za-z0-9_-]+)?`)

// writtenFile: a Markdown file that fgrtbench writes (named in comments
// of the code that writes it), not a document of the repository.
func writtenFile(name string) bool {
	return name == "REPORT.md" || strings.Contains(name, "<")
}

// TestCommentsCiteExistingDocs: every Markdown file a Go comment cites is in
// the repository, and so is every anchor it names (a heading of that file).
// Specifications that live elsewhere are summarised in docs/ and cited
// there, so a reader of the code can always follow a citation.
func TestCommentsCiteExistingDocs(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{} // file (from root) -> heading slugs
	cited := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(path) != ".go" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil // not Go source this test can read (e.g. a deliberately broken testdata file)
		}
		rel, _ := filepath.Rel(root, path)
		for _, cg := range f.Comments {
			for _, m := range mdCitation.FindAllString(cg.Text(), -1) {
				file, anchor, _ := strings.Cut(m, "#")
				base := filepath.Base(file)
				if writtenFile(base) {
					continue
				}
				cited++
				target := ""
				for _, cand := range []string{file, filepath.Join(filepath.Dir(rel), file), filepath.Join("docs", file)} {
					if _, err := os.Stat(filepath.Join(root, cand)); err == nil {
						target = filepath.Clean(cand)
						break
					}
				}
				if target == "" {
					t.Errorf("%s: a comment cites %s, which is not in the repository (summarise the specification in docs/ and cite that)", rel, m)
					continue
				}
				if anchor == "" {
					continue
				}
				if anchors[target] == nil {
					anchors[target] = headingSlugs(t, filepath.Join(root, target))
				}
				if !anchors[target][anchor] {
					t.Errorf("%s: a comment cites %s, but %s has no heading with the anchor #%s", rel, m, target, anchor)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Fatal("no Go comment cites a document: the scan is broken")
	}
}

// headingSlugs returns the anchors of a Markdown file's headings as
// GitHub forms them: lower case, punctuation other than '-' and '_'
// dropped, spaces as '-'.
func headingSlugs(t *testing.T, path string) map[string]bool {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	slugs := map[string]bool{}
	fence := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		slugs[slug(strings.TrimLeft(line, "# "))] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return slugs
}

func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSlug pins the anchor rule on headings of this repository's docs.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Quirks":                            "quirks",
		"C4.5":                              "c45",
		"FGRT grid and test-fold selection": "fgrt-grid-and-test-fold-selection",
		"Golden files and `-update`":        "golden-files-and--update",
		"`.ci/run`":                         "cirun",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

// mdLink matches a relative link to a Markdown file in a document:
// [text](docs/fidelity.md#quirks), [text](protocols.md).
var mdLink = regexp.MustCompile(`\]\(([A-Za-z0-9_./-]+\.md)(#[A-Za-z0-9_-]+)?\)`)

// TestDocsLinkToExistingAnchors: every link from README.md or docs/ to an
// anchor of a document in the repository names a heading of that document,
// so moving or renaming a section cannot leave a dead link behind. (Links to
// whole files are not required to resolve: some documents are written
// alongside this one.)
func TestDocsLinkToExistingAnchors(t *testing.T) {
	docs, _ := filepath.Glob("../../docs/*.md")
	checked := 0
	for _, doc := range append(docs, "../../README.md") {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := filepath.Join(filepath.Dir(doc), m[1])
			if m[2] == "" {
				continue
			}
			if _, err := os.Stat(target); err != nil {
				continue
			}
			checked++
			if !headingSlugs(t, target)[m[2][1:]] {
				t.Errorf("%s links to %s%s, which has no such heading", filepath.Base(doc), m[1], m[2])
			}
		}
	}
	if checked == 0 {
		t.Fatal("no link to an anchor found: the scan is broken")
	}
}
