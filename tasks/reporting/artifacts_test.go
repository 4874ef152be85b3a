package reporting

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// TestArtifactsGC: a report collects garbage at artifactsGCPercent while it
// reads artifacts of at least largeArtifacts compressed bytes (the
// large-data study's report peaked at 1.5 GB with the default), keeps the
// default below that, never overrides a GOGC the user set, and restores
// the setting afterwards.
func TestArtifactsGC(t *testing.T) {
	percent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	before := percent()
	for _, c := range []struct {
		name string
		size int64
		gogc string
		want int
	}{
		{"large", largeArtifacts, "", artifactsGCPercent},
		{"small", largeArtifacts - 1, "", before},
		{"user's GOGC", 4 * largeArtifacts, "100", before},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.gogc != "" {
				t.Setenv("GOGC", c.gogc)
			}
			dir := t.TempDir()
			half := c.size / 2
			for name, n := range map[string]int64{artifacts.PredictionsFile: half, artifacts.ModelsFile: c.size - half} {
				if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(filepath.Join(dir, name), n); err != nil {
					t.Fatal(err)
				}
			}
			restore := artifactsGC(dir)
			if got := percent(); got != c.want {
				t.Errorf("GC percent %d while reading %d bytes of artifacts, want %d", got, c.size, c.want)
			}
			restore()
			if got := percent(); got != before {
				t.Errorf("GC percent %d after the report, want %d restored", got, before)
			}
		})
	}
}
