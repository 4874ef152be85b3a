package sidebyside

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDefaultScalingJobs(t *testing.T) {
	for _, c := range []struct {
		n    int
		want []int
	}{
		{1, []int{1}}, {2, []int{1, 2}}, {3, []int{1, 2, 3}}, {4, []int{1, 2, 4}},
		{6, []int{1, 2, 4, 6}}, {16, []int{1, 2, 4, 8, 16}}, {0, []int{1}},
	} {
		if got := DefaultScalingJobs(c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("DefaultScalingJobs(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}

// TestScalingTableAndCSV: the speed-ups are each study's -j 1 and -j 2
// walls over the run's, the efficiency the speed-up over -j 1 per thread;
// a study without a -j 1 run has none (a dash, an empty CSV field), and
// neither has a run whose peak memory is unknown.
func TestScalingTableAndCSV(t *testing.T) {
	runs := []ScalingRun{
		{Study: "paper", Jobs: 1, Wall: 82, PeakRSS: 300e6},
		{Study: "paper", Jobs: 4, Wall: 25, PeakRSS: 400e6},
		{Study: "paper", Jobs: 16, Wall: 9.8, PeakRSS: 500e6},
		{Study: "large", Jobs: 2, Wall: 161.7, PeakRSS: 1160e6},
		{Study: "large", Jobs: 16, Wall: 55.6},
	}
	table := ScalingTable(runs)
	for _, want := range []string{
		"paper      1      82.0s     1.00×         —      100 %     300 MB",
		"paper      4      25.0s     3.28×         —       82 %     400 MB",
		"paper     16       9.8s     8.37×         —       52 %     500 MB",
		"large      2     161.7s         —     1.00×          —    1160 MB",
		"large     16      55.6s         —     2.91×          —          —",
	} {
		if !strings.Contains(table, want+"\n") {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	b, err := ScalingCSV(runs)
	if err != nil {
		t.Fatal(err)
	}
	want := "study,jobs,wall_seconds,speedup_vs_j1,speedup_vs_j2,efficiency,peak_rss_bytes\n" +
		"paper,1,82.000,1.000,,1.000,300000000\n" +
		"paper,4,25.000,3.280,,0.820,400000000\n" +
		"paper,16,9.800,8.367,,0.523,500000000\n" +
		"large,2,161.700,,1.000,,1160000000\n" +
		"large,16,55.600,,2.908,,\n"
	if string(b) != want {
		t.Errorf("CSV\n%s\nwant\n%s", b, want)
	}
}

// TestRunScalingRefusals: an unknown study or a -j below 1 is refused
// before anything is generated or run.
func TestRunScalingRefusals(t *testing.T) {
	for _, c := range []struct {
		o    ScalingOptions
		want string
	}{
		{ScalingOptions{Studies: []string{"paper", "tiny"}}, `unknown study "tiny"`},
		{ScalingOptions{Jobs: []int{1, 0}}, "-j 0 is below 1"},
	} {
		c.o.Binary, c.o.Dir = "/nonexistent/fgrtbench", t.TempDir()
		if _, err := RunScaling(context.Background(), c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.o, err, c.want)
		}
	}
}

// A run's output directory that is already there is not the run's to
// delete: RunScaling refuses it and leaves it as it was.
func TestScalingKeepsAnExistingDirectory(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "scaling-paper-j1")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(mine, "keep.txt")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := ScalingOptions{Studies: []string{"paper"}, Jobs: []int{1}, Dir: dir, Binary: "/bin/true", Log: io.Discard}
	if _, err := RunScaling(context.Background(), o); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("RunScaling over an existing directory: %v", err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "mine" {
		t.Fatalf("the existing directory's file: %q %v", b, err)
	}
}
