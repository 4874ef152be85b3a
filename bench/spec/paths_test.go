//go:build unix

package spec

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRelativeProgramIsNotLookedUpOnPath: a spec named relative to the
// working directory (run --spec study.yaml) whose command is ./learner
// resolves the program from the spec's directory to an absolute path: the
// manifest's provenance names that file, and the method is built, even
// when another program called learner is on PATH (a decoy here). Before,
// filepath.Join(".", "./learner") gave "learner", which exec.LookPath
// looked for on PATH: the decoy was recorded while ./learner ran, or,
// without one, the run was refused. Data paths are absolute too.
func TestRelativeProgramIsNotLookedUpOnPath(t *testing.T) {
	root := t.TempDir()
	studyDir, decoyDir := filepath.Join(root, "study"), filepath.Join(root, "bin")
	for _, d := range []string{studyDir, decoyDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := []byte("#!/bin/sh\nexit 0\n")
	for _, p := range []string{filepath.Join(studyDir, "learner"), filepath.Join(decoyDir, "learner")} {
		if err := os.WriteFile(p, script, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(studyDir, "mine.csv"), []byte("x,class\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	body := "protocols: [clean]\ndatasets: [mine.csv]\nfolds: 2\ninner_folds: 2\nmethods:\n  - name: external\n    external:\n      command: ./learner {dir}\n"
	if err := os.WriteFile(filepath.Join(studyDir, "study.yaml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, decoy := range []bool{true, false} {
		path := "/nonexistent"
		if decoy {
			path = decoyDir
		}
		t.Setenv("PATH", path)
		t.Chdir(studyDir)
		s, err := Load("study.yaml")
		if err != nil {
			t.Fatalf("decoy %v: %v", decoy, err)
		}
		want := filepath.Join(studyDir, "learner")
		ext := s.Methods[0].External
		if ext.Program != want {
			t.Errorf("decoy %v: provenance records program %q, want %q", decoy, ext.Program, want)
		}
		if _, err := ext.Method(); err != nil {
			t.Errorf("decoy %v: the method is refused: %v", decoy, err)
		}
		if got := s.DataPath("mine.csv"); got != filepath.Join(studyDir, "mine.csv") {
			t.Errorf("data path %q, want it absolute", got)
		}
	}
}
