package runner

import (
	"context"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

func TestStagesAddAndFormat(t *testing.T) {
	var s Stages
	s.add(StageFit, 1500*time.Millisecond)
	s.add(StageFit, 250*time.Millisecond)
	s.add(StageWrite, 40*time.Millisecond)
	var none *Stages
	none.add(StageFit, time.Second) // a nil receiver records nothing
	if got := s.Seconds(); got[StageFit] != 1.75 || got[StageWrite] != 0.04 || got[StageLoad] != 0 || len(got) != 5 {
		t.Errorf("Seconds = %v", got)
	}
	if got, want := s.String(), "load 0.0s, prepare 0.0s, fit 1.8s, predict 0.0s, write 0.0s"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

// TestRunRecordsStages: a run times every stage it went through and the
// manifest records the figures, for the run and its history entry.
func TestRunRecordsStages(t *testing.T) {
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"alpha"}, Options: protocol.DefaultOptions(),
		Methods: []study.MethodSpec{{Name: "cart"}, {Name: "fgrt"}}}
	dir := t.TempDir()
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2}
	if _, err := r.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	for i, n := range StageNames() {
		if r.Stages().ns[i].Load() <= 0 {
			t.Errorf("stage %s not timed", n)
		}
	}
	man, err := manifest.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(man.StageSeconds) != 5 || man.History[len(man.History)-1].StageSeconds[StageFit] != man.StageSeconds[StageFit] || man.StageSeconds[StageFit] <= 0 {
		t.Errorf("manifest stage_seconds %v, history %v", man.StageSeconds, man.History[len(man.History)-1].StageSeconds)
	}
}
