package externaltry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

// TestExternalMethod: a try picks the external method the label names, or
// the only one; it refuses a spec without one, an ambiguous spec and an
// unknown label, naming the labels there are.
func TestExternalMethod(t *testing.T) {
	ext := func(label string) study.MethodSpec {
		return study.MethodSpec{Name: "external", Label: label, External: &external.Spec{}}
	}
	cases := []struct {
		methods []study.MethodSpec
		label   string
		want    string // the chosen label, or the error's text
	}{
		{[]study.MethodSpec{{Name: "cart"}, ext("a")}, "", "a"},
		{[]study.MethodSpec{ext("a"), ext("b")}, "b", "b"},
		{[]study.MethodSpec{{Name: "cart"}}, "", "s.yaml has no external method"},
		{[]study.MethodSpec{ext("a"), ext("b")}, "", "s.yaml has several external methods (a, b): choose one with --method"},
		{[]study.MethodSpec{ext("a")}, "c", `s.yaml has no external method "c" (external methods: a)`},
	}
	for _, c := range cases {
		ms, err := externalMethod(study.Study{Methods: c.methods}, Options{Spec: "s.yaml", Label: c.label})
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = ms.ResultLabel()
		}
		if got != c.want {
			t.Errorf("label %q: got %q, want %q", c.label, got, c.want)
		}
	}
}

// TestDeletedFiles: a failed job's claim that its files were kept is
// replaced, when they are deleted, and left alone otherwise.
func TestDeletedFiles(t *testing.T) {
	dir := filepath.Join("tmp", "try-1")
	boom := errors.New("exit status 1")
	inside := fmt.Errorf("fit: %w", &external.KeptError{Err: boom, Dir: filepath.Join(dir, "job-1")})
	want := "fit: exit status 1 (the job's files were shown above and deleted; --keep-unit-dirs DIR keeps them)"
	if got := deletedFiles(inside, dir); got.Error() != want {
		t.Errorf("kept under the try's directory: %q, want %q", got, want)
	}
	elsewhere := &external.KeptError{Err: boom, Dir: filepath.Join("tmp", "try-10", "job-1")}
	for _, err := range []error{elsewhere, boom, nil} {
		if got := deletedFiles(err, dir); got != err {
			t.Errorf("%v became %v", err, got)
		}
	}
}

// TestFileStart: the start of an output on one line, "..." when it goes on.
func TestFileStart(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ content, want string }{
		{"0\n1\n2\n", `0\n1\n2`},
		{strings.Repeat("1\n", 200), strings.TrimSuffix(strings.Repeat(`1\n`, 150), `\n`) + "..."},
	}
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprint(i))
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := fileStart(path, int64(len(c.content))); !ok || got != c.want {
			t.Errorf("%d: %q %v, want %q", i, got, ok, c.want)
		}
	}
	if _, ok := fileStart(filepath.Join(dir, "absent"), 0); ok {
		t.Error("an absent file has a start")
	}
}
