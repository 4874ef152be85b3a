package runner

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// Stage names, in the order a run goes through them.
const (
	StageLoad    = "load"    // reading and checksumming the datasets
	StagePrepare = "prepare" // plans, folds and their scaled rows
	StageFit     = "fit"     // learners' fits, inner cross-validation's included
	StagePredict = "predict" // learners' predictions
	StageWrite   = "write"   // results.csv and manifest.json
)

// StageNames lists the stages in order.
func StageNames() []string {
	return []string{StageLoad, StagePrepare, StageFit, StagePredict, StageWrite}
}

// Stages accumulates the time a run spends in each stage, summed over the
// workers (with -j 2 the sum can reach twice the wall time). It is what
// --profile prints and the manifest records, so that a stage that grows
// out of proportion to the fits shows.
type Stages struct {
	ns [5]atomic.Int64
}

func stageIndex(name string) int {
	for i, n := range StageNames() {
		if n == name {
			return i
		}
	}
	panic("runner: unknown stage " + name)
}

// add records d in stage name; safe for concurrent use, and a nil
// receiver records nothing.
func (s *Stages) add(name string, d time.Duration) {
	if s != nil {
		s.ns[stageIndex(name)].Add(int64(d))
	}
}

// since records the time since t0 in stage name.
func (s *Stages) since(name string, t0 time.Time) { s.add(name, time.Since(t0)) }

// Seconds returns each stage's seconds, rounded to milliseconds.
func (s *Stages) Seconds() map[string]float64 {
	out := make(map[string]float64, len(s.ns))
	for i, n := range StageNames() {
		out[n] = float64(s.ns[i].Load()/int64(time.Millisecond)) / 1000
	}
	return out
}

// String is the one-line profile: "load 1.6s, prepare 2.0s, ...".
func (s *Stages) String() string {
	sec := s.Seconds()
	parts := make([]string, 0, len(sec))
	for _, n := range StageNames() {
		parts = append(parts, fmt.Sprintf("%s %.1fs", n, sec[n]))
	}
	return strings.Join(parts, ", ")
}
