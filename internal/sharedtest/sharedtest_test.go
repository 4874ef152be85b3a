package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder keeps the first Skipf message instead of skipping (the code
// after it runs on, so only the first counts).
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Skipf(format string, args ...any) {
	if r.msg == "" {
		r.msg = fmt.Sprintf(format, args...)
	}
}

func (r *recorder) Helper() {}

func TestMirror(t *testing.T) {
	mirror := t.TempDir()
	shared := t.TempDir()
	if err := os.MkdirAll(filepath.Join(shared, "datasets", "raw"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(mirror, "wine.dat")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, mirrorEnv, sharedEnv string
		want                       string // Mirror()
		skip                       string // part of RequireMirror's message
	}{
		{"FGRT_DATA_MIRROR first", mirror, shared, mirror, ""},
		{"the reference directory's datasets/raw", "", shared, filepath.Join(shared, "datasets", "raw"), ""},
		{"FGRT_DATA_MIRROR not a directory", file, shared, "", "KEEL mirror not found: FGRT_DATA_MIRROR=" + file + " is not a directory"},
		{"neither", "", mirror, "", "KEEL mirror not found: FGRT_DATA_MIRROR is unset and datasets/raw of the reference directory is absent (FGRT_SHARED=" + mirror + " does not hold it); set FGRT_DATA_MIRROR=DIR"},
	} {
		t.Setenv("FGRT_DATA_MIRROR", c.mirrorEnv)
		t.Setenv("FGRT_SHARED", c.sharedEnv)
		if got := Mirror(); got != c.want {
			t.Errorf("%s: Mirror() = %q, want %q", c.name, got, c.want)
		}
		r := &recorder{TB: t}
		RequireMirror(r)
		got := r.msg
		if c.skip == "" && got != "" || c.skip != "" && !strings.Contains(got, c.skip) {
			t.Errorf("%s: RequireMirror skipped with %q, want %q", c.name, got, c.skip)
		}
	}
}
