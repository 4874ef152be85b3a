package runner

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
)

// TestSelectSweepSpelling: the output directory's spelling of the sweep
// selection (it does not import the protocols) is the protocols'.
func TestSelectSweepSpelling(t *testing.T) {
	if outdir.SweepSelection != protocol.SelectSweep {
		t.Fatalf("outdir.SweepSelection %q, protocol.SelectSweep %q", outdir.SweepSelection, protocol.SelectSweep)
	}
}
