package plots

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// TestSweepFigureNameIsOneSafeComponent: a label of any length or content
// gives a figure name that is one short file-name component (a 260-character
// label once failed only when the report was written), and distinct long
// labels stay distinct; ordinary labels keep their historical names.
func TestSweepFigureNameIsOneSafeComponent(t *testing.T) {
	long := strings.Repeat("x", 260)
	names := map[string]bool{}
	for _, label := range []string{long, long + "y", "../../etc/passwd", "a b\x00c\nd", "fgrt@ofat"} {
		n := SweepFigureName(analysis.Sweep{Protocol: "clean", Method: label})
		if filepath.Base(n) != n || len(n)+len(".png") > 255 || strings.ContainsAny(n, "/\x00\n") {
			t.Errorf("label %.20q: figure name %q", label, n)
		}
		if names[n] {
			t.Errorf("two labels share the figure name %q", n)
		}
		names[n] = true
	}
	if got := SweepFigureName(analysis.Sweep{Protocol: "clean", Method: "fgrt@ofat"}); got != "sweep_clean_fgrt_ofat" {
		t.Errorf("ordinary label: %q", got)
	}
}
