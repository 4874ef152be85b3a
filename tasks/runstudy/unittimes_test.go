package runstudy

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

// scheduleTimes is five units whose canonical order puts the long one
// last: on 2 workers that order takes 6 s, largest (and longest) first 4 s.
func scheduleTimes() []runner.UnitTime {
	walls := []float64{1, 1, 1, 1, 4}
	cells := []int64{10, 10, 10, 10, 40}
	var ts []runner.UnitTime
	for i, w := range walls {
		ts = append(ts, runner.UnitTime{
			Unit:      study.Unit{Protocol: "clean", Dataset: "a, \"b\"", Label: "fgrt", Fold: i},
			Canonical: i, Started: (i + 1) % 5, Cells: cells[i],
			Start: time.Duration(i) * time.Second, Wall: time.Duration(w * float64(time.Second)), Failed: i == 2,
		})
	}
	return ts
}

func TestWriteUnitTimes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "times.csv")
	if err := writeUnitTimes(path, scheduleTimes()); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 || !slices.Equal(rows[0], unitTimesHeader) {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	// Rows in the order units started: the unit started 0th is canonical 4.
	want := []string{"0", "4", "clean", "a, \"b\"", "fgrt", "0", "4", "40", "4.000000", "4.000000", "false"}
	if !slices.Equal(rows[1], want) {
		t.Errorf("first row %q, want %q", rows[1], want)
	}
	if rows[4][10] != "true" || rows[4][1] != "2" {
		t.Errorf("the failed unit's row: %q", rows[4])
	}

	if err := checkUnitTimesPath(path); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("an existing file: %v, want a refusal", err)
	}
	link := filepath.Join(t.TempDir(), "link.csv")
	if err := os.Symlink(filepath.Join(t.TempDir(), "absent"), link); err != nil {
		t.Skip(err)
	}
	if err := checkUnitTimesPath(link); err == nil {
		t.Error("a dangling link was accepted")
	}
	if err := writeUnitTimes(link, scheduleTimes()); err == nil {
		t.Error("written through a dangling link")
	}
	if _, err := os.Lstat(link); err != nil {
		t.Errorf("the link is gone: %v", err)
	}
}

// TestReplaySchedule runs scripts/replay-schedule.sh on what
// writeUnitTimes wrote: the replay reads the file's columns as written and
// gets the schedules' lengths worked out by hand.
func TestReplaySchedule(t *testing.T) {
	if _, err := exec.LookPath("awk"); err != nil {
		t.Skip("no awk here: the replay script needs it")
	}
	path := filepath.Join(t.TempDir(), "times.csv")
	if err := writeUnitTimes(path, scheduleTimes()); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", "../../scripts/replay-schedule.sh", path, "1", "2", "8").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []string{
		"5 units, 8.0000 s in all, the longest 4.00 s (" + path + ")",
		" workers   canonical  largest first   longest first     ideal",
		"       1       8.00s          8.00s           8.00s     8.00s",
		"       2       6.00s          4.00s           4.00s     4.00s",
		"       8       4.00s          4.00s           4.00s     1.00s",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("replay:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if out, err := exec.Command("sh", "../../scripts/replay-schedule.sh", path, "0").CombinedOutput(); err == nil {
		t.Errorf("0 workers accepted: %s", out)
	}
}
