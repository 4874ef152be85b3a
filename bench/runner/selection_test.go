package runner

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
)

// TestSelectSweepSpelling: the output directory's spelling of the sweep
// selection (it does not import the protocols) is the protocols'.
func TestSelectSweepSpelling(t *testing.T) {
	if selectSweep != protocol.SelectSweep {
		t.Fatalf("selectSweep %q, protocol.SelectSweep %q", selectSweep, protocol.SelectSweep)
	}
}
