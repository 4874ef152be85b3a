package cli

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// TestArtifactGzipBombRefused: a predictions.csv.gz planted in a results
// directory whose member decompresses to 128 MB of zeros (a gzip bomb of a
// few hundred KB) makes report, a resumed run and merge exit 1 with one
// line, in bounded memory and time, and no command cuts or rewrites it.
func TestArtifactGzipBombRefused(t *testing.T) {
	tmp := t.TempDir()
	data, spec, out := filepath.Join(tmp, "d.csv"), filepath.Join(tmp, "s.yaml"), filepath.Join(tmp, "X")
	writeData(t, data, 0)
	writeSpec(t, spec, data, 3)
	if code, _, errOut := runCLI("run", "--spec", spec, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("run: %s", errOut)
	}
	path := filepath.Join(out, artifacts.PredictionsFile)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The file's own members, then the bomb: a damaged tail that a resume
	// would otherwise cut, and that no reader may decompress whole.
	var buf bytes.Buffer
	buf.Write(good)
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zero := make([]byte, 1<<20)
	for range 128 {
		zw.Write(zero)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	planted := buf.Bytes()
	if err := os.WriteFile(path, planted, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"report", "--results", out},
		{"run", "--spec", spec, "--out", out, "--no-report"},
		{"merge", "--out", filepath.Join(tmp, "M"), out},
	} {
		refused(t, tmp, out, []string{artifacts.PredictionsFile, "gzip bomb"}, args...)
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, planted) {
			t.Fatalf("%v changed the planted file (%d bytes, was %d; %v)", args, len(got), len(planted), err)
		}
	}
}
