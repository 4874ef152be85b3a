//go:build unix

package external

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRelativeBaseDirResolvesAbsolute: a command "./learner" with a
// relative base directory ("." for a spec or baseline named relative to
// the working directory) resolves to the file beside it, as an absolute
// path, never to a program of that name on PATH: the provenance (Program)
// and the program run are that file. Before, filepath.Join(".",
// "./learner") gave "learner", a bare name looked for on PATH.
func TestRelativeBaseDirResolvesAbsolute(t *testing.T) {
	root := t.TempDir()
	decoyDir := filepath.Join(root, "bin")
	if err := os.Mkdir(decoyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := []byte("#!/bin/sh\nexit 0\n")
	for _, p := range []string{filepath.Join(root, "learner"), filepath.Join(decoyDir, "learner")} {
		if err := os.WriteFile(p, script, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", decoyDir)
	t.Chdir(root)
	for _, base := range []string{".", "./", "bin/.."} {
		s := &Spec{Command: "./learner {dir}", BaseDir: base}
		if err := s.Pin(); err != nil {
			t.Fatalf("base %q: %v", base, err)
		}
		want := filepath.Join(root, "learner")
		if s.Program != want {
			t.Errorf("base %q: Program = %q, want %q", base, s.Program, want)
		}
		if _, err := s.Method(); err != nil {
			t.Fatalf("base %q: the method is refused: %v", base, err)
		}
		tmpl, err := parseTemplate(s.Command, s.Params)
		if err != nil {
			t.Fatal(err)
		}
		run, err := s.runConfig(tmpl, *s, 0)
		if err != nil {
			t.Fatal(err)
		}
		if run.program != want {
			t.Errorf("base %q: runs %q, want %q", base, run.program, want)
		}
	}
}
