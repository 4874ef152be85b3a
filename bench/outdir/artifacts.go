package outdir

import (
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

const (
	ArtifactsKept = "kept"
	// ArtifactsOff: the directory was started with --no-artifacts (or
	// before artifacts existed); readers report it as such.
	ArtifactsOff = "off"
)

// mergeArtifacts merges the inputs' artifacts into dir, keeping the units
// the merged results keep, and returns the manifest's artifact mode.
func mergeArtifacts(dir string, ins []mergeInput, complete map[string]bool) (string, error) {
	srcs := make([]string, len(ins))
	for i, mi := range ins {
		srcs[i] = filepath.Dir(mi.path)
	}
	kept, err := artifacts.Merge(dir, srcs, func(key string) bool { return complete[key] })
	if err != nil || !kept {
		return ArtifactsOff, err
	}
	return ArtifactsKept, nil
}
