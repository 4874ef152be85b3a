package check

import (
	"path/filepath"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

// TestStudyDirIsAbsolute: the directory a baseline's study resolves its
// data files and external programs from is made absolute when it is set,
// so that a baseline named relative to the working directory (check
// --baseline b.json: its directory is ".") never turns ./learner into a
// bare name looked up on PATH, nor mine.csv into a path that depends on a
// later change of directory.
func TestStudyDirIsAbsolute(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	for _, dir := range []string{".", "", "sub/.."} {
		s := study.Study{Datasets: []string{"mine.csv"}, Methods: []study.MethodSpec{{Name: external.Name, External: &external.Spec{Command: "./learner {dir}"}}}}
		setStudyDir(&s, dir)
		if got := s.DataPath("mine.csv"); got != filepath.Join(root, "mine.csv") {
			t.Errorf("dir %q: data path %q, want %q", dir, got, filepath.Join(root, "mine.csv"))
		}
		if got := s.Methods[0].External.BaseDir; got != root {
			t.Errorf("dir %q: external base %q, want %q", dir, got, root)
		}
	}
}
