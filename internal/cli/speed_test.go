package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/fgrtbench/fgrtbench/timing/speed"
)

// TestSpeedScriptSplicesMarkdown: what 'speed --markdown' prints, spliced
// into a document by scripts/speed.sh --readme, gives the bytes that
// speed.UpdateFile (the binary's former --readme) gave; a document without
// the markers is refused and left as it was.
func TestSpeedScriptSplicesMarkdown(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	script, err := filepath.Abs("../../scripts/speed.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	block := "Measured by `scripts/speed.sh` on a test.\n\n| task | rows |\n|---|---:|\n| fit | 1,000 |\n"
	blockFile := filepath.Join(dir, "block.md")
	if err := os.WriteFile(blockFile, []byte(markedBlock(block)), 0o644); err != nil {
		t.Fatal(err)
	}
	splice := func(path string) error {
		cmd := exec.Command("bash", script, "--readme="+path)
		cmd.Env = append(os.Environ(), "SPEED_BLOCK="+blockFile)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("speed.sh: %s", out)
		}
		return err
	}
	for _, c := range []struct {
		name, doc string
		ok        bool
	}{
		{"block mid-file", "# Title\n\ntext before\n" + speed.BeginMarker + "\nold line\n\nold table\n" + speed.EndMarker + "\ntext after\n", true},
		{"empty block at end", "x\n" + speed.BeginMarker + "\n" + speed.EndMarker + "\n", true},
		{"no markers", "# Title\nno block here\n", false},
		{"begin marker only", "a\n" + speed.BeginMarker + "\nb\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			viaGo, viaScript := filepath.Join(dir, "go.md"), filepath.Join(dir, "sh.md")
			for _, p := range []string{viaGo, viaScript} {
				if err := os.WriteFile(p, []byte(c.doc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			goErr := speed.UpdateFile(viaGo, block)
			shErr := splice(viaScript)
			if (goErr == nil) != c.ok || (shErr == nil) != c.ok {
				t.Fatalf("UpdateFile: %v; speed.sh: %v; want success %v", goErr, shErr, c.ok)
			}
			want, _ := os.ReadFile(viaGo)
			got, _ := os.ReadFile(viaScript)
			if string(got) != string(want) {
				t.Errorf("speed.sh spliced\n%s\nUpdateFile gives\n%s", got, want)
			}
			if !c.ok && string(got) != c.doc {
				t.Errorf("a refused document was changed:\n%s", got)
			}
		})
	}
}
