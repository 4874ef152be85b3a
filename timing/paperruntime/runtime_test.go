package paperruntime

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
)

// numpy: np.random.seed(42); np.random.randn(5) — widely published values.
func TestSyntheticMatchesNumpyRandn(t *testing.T) {
	X, y := Synthetic(1, 5)
	want := []float64{0.4967141530112327, -0.13826430117118466, 0.6476885381006925, 1.5230298564080254, -0.23415337472333597}
	for j, w := range want {
		if math.Abs(X[0][j]-w) > 1e-15 {
			t.Errorf("randn[%d] = %.17g, want %.17g", j, X[0][j], w)
		}
	}
	if len(y) != 1 || y[0] < 0 || y[0] > 2 {
		t.Errorf("labels %v", y)
	}
}

func TestSyntheticDeterministicAndShaped(t *testing.T) {
	X1, y1 := Synthetic(200, 7)
	X2, y2 := Synthetic(200, 7)
	if !reflect.DeepEqual(X1, X2) || !reflect.DeepEqual(y1, y2) {
		t.Fatal("Synthetic is not deterministic")
	}
	counts := [3]int{}
	for i, row := range X1 {
		if len(row) != 7 {
			t.Fatalf("row %d has %d columns", i, len(row))
		}
		counts[y1[i]]++
	}
	for k, c := range counts {
		if c < 40 {
			t.Errorf("class %d has only %d of 200 rows", k, c)
		}
	}
	// The same seed for every call: a larger data set starts with the same
	// first row (randn fills row-major).
	X3, _ := Synthetic(300, 7)
	if !reflect.DeepEqual(X1[0], X3[0]) {
		t.Error("first row differs between sizes")
	}
}

func TestTrainRowsIsEightyPercentWithoutRepeats(t *testing.T) {
	for _, n := range []int{10, 101, 1000} {
		rows := trainRows(n, 42)
		if want := n - int(math.Ceil(0.2*float64(n))); len(rows) != want {
			t.Errorf("n=%d: %d training rows, want %d", n, len(rows), want)
		}
		seen := map[int]bool{}
		for _, r := range rows {
			if r < 0 || r >= n || seen[r] {
				t.Fatalf("n=%d: bad or repeated row %d", n, r)
			}
			seen[r] = true
		}
	}
}

// fakeClock advances one millisecond per call, so times are deterministic.
func fakeClock() func() time.Time {
	t0 := time.Unix(0, 0)
	return func() time.Time { t0 = t0.Add(time.Millisecond); return t0 }
}

func TestRunWritesWellFormedCSV(t *testing.T) {
	o := Options{
		Methods: []string{"cart", "c45-entropy"}, Samples: []int{50, 20}, SamplesFeatures: 3,
		Features: []int{2, 4}, FeaturesSamples: 40, Trials: 2,
		MaxSamples: map[string]int{"c45-entropy": 20}, now: fakeClock(),
	}
	rows, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	// samples: cart 2 sizes x 2 trials, c45-entropy 1 size x 2; features:
	// cart only (n=40 is above c45-entropy's cap), 2 sizes x 2 trials.
	if len(rows) != 4+2+4 {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	if rows[0].Study != runtimecsv.StudySamples || rows[0].NSamples != 20 || rows[0].NFeatures != 3 {
		t.Errorf("first row %+v, want samples study at n=20 (sizes sorted)", rows[0])
	}
	for _, r := range rows {
		if r.Method == "c45-entropy" && r.Study == runtimecsv.StudySamples && r.NSamples > 20 {
			t.Errorf("cap ignored: %+v", r)
		}
		if r.FitSeconds != 0.001 {
			t.Errorf("fit time %v, want the fake clock's 1ms", r.FitSeconds)
		}
	}
	var buf bytes.Buffer
	if err := runtimecsv.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if lines[0] != "study,method,n_samples,n_features,trial,fit_seconds" || len(lines) != len(rows)+1 {
		t.Fatalf("csv:\n%s", buf.String())
	}
	back, err := runtimecsv.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rows) {
		t.Errorf("round trip differs:\n%+v\n%+v", back, rows)
	}
	path := t.TempDir() + "/sub/runtime.csv"
	if err := runtimecsv.WriteFile(path, rows); err != nil {
		t.Fatal(err)
	}
	if again, err := runtimecsv.ReadFile(path); err != nil || !reflect.DeepEqual(again, rows) {
		t.Errorf("file round trip: %v", err)
	}
}

func TestMaxSecondsPerFitStopsGrowth(t *testing.T) {
	o := Options{Methods: []string{"cart"}, Samples: []int{20, 30, 40}, SamplesFeatures: 2, Trials: 1,
		MaxSecondsPerFit: 0.0005, now: fakeClock()}
	rows, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].NSamples != 20 {
		t.Errorf("rows %+v, want only the first size", rows)
	}
}

func TestRunRealSubsamples(t *testing.T) {
	X, y := Synthetic(60, 3)
	s := syntheticSchema(3)
	load := func(_ context.Context, name string) ([][]float64, []int, learn.Schema, error) { return X, y, s, nil }
	rows, err := RunReal(context.Background(), load, []string{"toy"}, Options{
		Methods: []string{"cart"}, Samples: []int{20, 100}, Trials: 2, now: fakeClock()})
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, r := range rows {
		if r.Study != "real/toy" || r.NFeatures != 3 {
			t.Errorf("row %+v", r)
		}
		sizes = append(sizes, r.NSamples)
	}
	if !reflect.DeepEqual(sizes, []int{20, 20, 60, 60}) {
		t.Errorf("sizes %v, want 20 (subsample) and 60 (whole data set), two trials each", sizes)
	}
}

func TestBadInput(t *testing.T) {
	cases := map[string]Options{
		"no trials":      {Methods: []string{"cart"}, Samples: []int{100}, SamplesFeatures: 2},
		"tiny size":      {Methods: []string{"cart"}, Samples: []int{5}, SamplesFeatures: 2, Trials: 1},
		"unknown method": {Methods: []string{"nope"}, Samples: []int{100}, SamplesFeatures: 2, Trials: 1},
		"bad param":      {Methods: []string{"cart"}, Params: map[string]map[string]string{"cart": {"zzz": "1"}}, Samples: []int{100}, SamplesFeatures: 2, Trials: 1},
		"no features":    {Methods: []string{"cart"}, Samples: []int{100}, Trials: 1},
	}
	for name, o := range cases {
		if _, err := Run(context.Background(), o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	for _, bad := range []string{"", "a,b\n", "study,method,n_samples,n_features,trial,fit_seconds\nx,y,1,2,3,-1\n"} {
		if _, err := runtimecsv.Read(strings.NewReader(bad)); err == nil {
			t.Errorf("runtimecsv.Read(%q): no error", bad)
		}
	}
}

// TestProgressCountsEveryPair: Progress hears of every (size, method) pair
// of each study once, in order, with Done counting up to the study's Total;
// a pair skipped by a cap still counts (with no time), so the count reaches
// the total and a progress line can say 100%.
func TestProgressCountsEveryPair(t *testing.T) {
	var steps []Step
	o := Options{
		Methods: []string{"cart", "c45-entropy"}, Samples: []int{50, 20}, SamplesFeatures: 3,
		Features: []int{2}, FeaturesSamples: 40, Trials: 1,
		MaxSamples: map[string]int{"c45-entropy": 20}, now: fakeClock(),
		Progress: func(s Step) { steps = append(steps, s) },
	}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{Study: runtimecsv.StudySamples, Method: "cart", N: 20, D: 3, Done: 1, Total: 4, Slowest: 0.001},
		{Study: runtimecsv.StudySamples, Method: "c45-entropy", N: 20, D: 3, Done: 2, Total: 4, Slowest: 0.001},
		{Study: runtimecsv.StudySamples, Method: "cart", N: 50, D: 3, Done: 3, Total: 4, Slowest: 0.001},
		{Study: runtimecsv.StudySamples, Method: "c45-entropy", N: 50, D: 3, Done: 4, Total: 4}, // above its cap
		{Study: runtimecsv.StudyFeatures, Method: "cart", N: 40, D: 2, Done: 1, Total: 2, Slowest: 0.001},
		{Study: runtimecsv.StudyFeatures, Method: "c45-entropy", N: 40, D: 2, Done: 2, Total: 2},
	}
	if !reflect.DeepEqual(steps, want) {
		t.Errorf("steps:\n%+v\nwant\n%+v", steps, want)
	}
}

// TestThreadsChangeOnlyTimes (issue 33): a study timed with a budget of
// several threads per fit writes the rows of the serial one (under a fake
// clock, where only the times could differ), trial for trial.
func TestThreadsChangeOnlyTimes(t *testing.T) {
	var ref []runtimecsv.Row
	for _, threads := range []int{0, 1, 4} {
		o := Options{Methods: []string{"cart", "fgrt"}, Samples: []int{60, 30}, SamplesFeatures: 3, Trials: 2,
			Threads: threads, now: fakeClock()}
		rows, err := Run(context.Background(), o)
		if err != nil {
			t.Fatalf("threads %d: %v", threads, err)
		}
		if len(rows) != 2*2*2 {
			t.Fatalf("threads %d: %d rows, want 8", threads, len(rows))
		}
		if ref == nil {
			ref = rows
		} else if !reflect.DeepEqual(rows, ref) {
			t.Errorf("threads %d: rows\n%v\nwant\n%v", threads, rows, ref)
		}
	}
}
