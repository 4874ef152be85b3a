package sidebyside

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMedianOfNothingAndNoSort: external_test's TestMedian has the
// values; no runs give NaN (a dash in the table), and the caller's slice
// keeps its order.
func TestMedianOfNothingAndNoSort(t *testing.T) {
	if !math.IsNaN(median(nil)) {
		t.Error("median of nothing is not NaN")
	}
	xs := []float64{3, 1, 2}
	if median(xs) != 2 || !reflect.DeepEqual(xs, []float64{3, 1, 2}) {
		t.Errorf("median sorted its argument: %v", xs)
	}
}

// TestFitSecondsByMethod: the columns are found by name (an earlier build's
// results.csv may order them otherwise) and every row's fit time counts.
func TestFitSecondsByMethod(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "results.csv")
	os.WriteFile(p, []byte("protocol,method,fold,fit_seconds\nclean,cart,0,0.5\nclean,fgrt,0,0.25\nclean,cart,1,1.5\n"), 0o644)
	got, err := fitSecondsByMethod(p)
	if err != nil || !reflect.DeepEqual(got, map[string]float64{"cart": 2, "fgrt": 0.25}) {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range []string{"method,seconds\ncart,1\n", "method,fit_seconds\ncart,x\n", "method,fit_seconds\ncart\n"} {
		os.WriteFile(p, []byte(bad), 0o644)
		if _, err := fitSecondsByMethod(p); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}

// TestVersusTableAndCSV: each build's figures are the medians of its
// rounds (one slow round does not move them), the ratio row divides this
// build's by the other's, the fit seconds are compared per method (a method
// the other build lacks gets a dash), and the CSV keeps every run.
func TestVersusTableAndCSV(t *testing.T) {
	run := func(build string, round int, wall float64, peak uint64, rep float64, fits map[string]float64) ScalingRun {
		return ScalingRun{Study: "paper", Jobs: 1, Build: build, Round: round, Wall: wall, CPU: wall / 2, PeakRSS: peak, ReportWall: rep, ReportPeakRSS: 400e6, Fits: fits}
	}
	runs := []ScalingRun{
		run(BuildThis, 0, 100, 200e6, 2.0, map[string]float64{"fgrt": 10, "fuzzycart": 3}),
		run(BuildVersus, 0, 110, 100e6, 3.0, map[string]float64{"fgrt": 11}),
		run(BuildVersus, 1, 108, 100e6, 3.2, map[string]float64{"fgrt": 12}),
		run(BuildThis, 1, 150, 200e6, 2.2, map[string]float64{"fgrt": 9, "fuzzycart": 3}),
		run(BuildThis, 2, 98, 200e6, 2.1, map[string]float64{"fgrt": 11, "fuzzycart": 3}),
		run(BuildVersus, 2, 112, 100e6, 3.1, map[string]float64{"fgrt": 13}),
	}
	table := VersusTable(runs)
	for _, want := range []string{
		"paper     1 this         3    100.00s     50.00s     200 MB      2.10s     400 MB\n",
		"paper     1 versus       3    110.00s     55.00s     100 MB      3.10s     400 MB\n",
		"paper     1 ratio              0.909×     0.909×     2.000×     0.677×     1.000×\n",
		"fgrt                       10.00s     12.00s   0.833×\n",
		"fuzzycart                   3.00s          —        —\n",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if strings.Index(table, "paper     1 this") > strings.Index(table, "paper     1 versus") {
		t.Errorf("this build is not first:\n%s", table)
	}
	b, err := VersusCSV(runs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 7 || lines[0] != strings.Join(VersusCSVHeader, ",") ||
		lines[1] != "paper,1,this,0,100.000,50.000,200000000,2.000,400000000,fgrt=10.0000;fuzzycart=3.0000" {
		t.Errorf("CSV:\n%s", b)
	}
}
