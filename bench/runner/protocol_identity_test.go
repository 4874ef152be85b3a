package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

// TestProtocolIdentityHoldsOnlyItsOptions: a unit's identity holds only the
// options its protocol reads. Changing the clean seed refuses a directory
// with clean units and names the clean difference, while the paper units,
// which ignore the seed, keep their identity: a paper-only study resumes a
// directory made with another seed.
func TestProtocolIdentityHoldsOnlyItsOptions(t *testing.T) {
	studyOf := func(seed int64, protocols ...string) study.Study {
		o := protocol.DefaultOptions()
		o.Seed = seed
		return study.Study{Protocols: protocols, Datasets: []string{"alpha"}, Options: o, Methods: []study.MethodSpec{{Name: "cart"}}}
	}
	run := func(dir string, s study.Study) (Summary, error) {
		return (&Runner{Load: testLoader, OutDir: dir, Jobs: 2}).Run(context.Background(), s)
	}

	both := t.TempDir()
	if _, err := run(both, studyOf(42, "paper", "clean")); err != nil {
		t.Fatal(err)
	}
	_, err := run(both, studyOf(7, "paper", "clean"))
	var mm *outdir.Mismatch
	if !errors.As(err, &mm) || !strings.Contains(err.Error(), "clean/alpha/cart") || !strings.Contains(err.Error(), "seed=42") || !strings.Contains(err.Error(), "seed=7") {
		t.Fatalf("clean seed changed under both protocols: want a mismatch naming clean/alpha/cart and the seeds, got %v", err)
	}
	if strings.Contains(err.Error(), "paper/") {
		t.Errorf("the refusal names a paper slot, whose units ignore the seed: %v", err)
	}

	paper := t.TempDir()
	first, err := run(paper, studyOf(7, "paper"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := run(paper, studyOf(42, "paper"))
	if err != nil || again.Skipped != first.Units || again.Ran != 0 {
		t.Fatalf("paper-only study with another clean seed: %+v, %v; want every unit resumed", again, err)
	}
	// The paper units of the both-protocol directory are those of a
	// paper-only study with any seed: same keys.
	idBoth, err := study.IdentityOf(studyOf(42, "paper", "clean"), map[string]string{"alpha": "x"})
	if err != nil {
		t.Fatal(err)
	}
	idPaper, err := study.IdentityOf(studyOf(7, "paper"), map[string]string{"alpha": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if idBoth.Groups[0].Hash != idPaper.Groups[0].Hash || len(idPaper.Groups[0].Options) != 0 {
		t.Fatalf("paper group %s %v vs %s %v", idBoth.Groups[0].Hash, idBoth.Groups[0].Options, idPaper.Groups[0].Hash, idPaper.Groups[0].Options)
	}
}
