package external

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external/externaltest"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// benchmarkJobs times whole jobs of the Go test adapter on a small problem
// (23 test rows): the harness writes the five input files, runs the job
// (a process, or a worker's round trip), and reads and checks the outputs.
// The adapter's own work (parsing the files, fitting centroids) is tens of
// microseconds, so worker mode's ns/op bounds the harness's overhead per
// job from above.
func benchmarkJobs(b *testing.B, mode string) {
	s := Spec{Command: externaltest.GoAdapter(b) + " {dir} {seed} {mode}", Params: map[string]string{"mode": "ok"}, Mode: mode}
	m, err := s.Method()
	if err != nil {
		b.Fatal(err)
	}
	tr, err := m.New(m.Defaults(), 1)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.(*Trainer).Close()
	d := learntest.Problems()[0]
	model, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := learn.PredictChecked(model, d.XTest, 3); err != nil { // start the worker
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := learn.PredictChecked(model, d.XTest, 3); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWorkerJob(b *testing.B)  { benchmarkJobs(b, ModeWorker) }
func BenchmarkProcessJob(b *testing.B) { benchmarkJobs(b, ModeProcess) }
