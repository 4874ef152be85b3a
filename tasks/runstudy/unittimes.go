package runstudy

import (
	"encoding/csv"
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/fgrtbench/fgrtbench/bench/runner"
)

// UnitTimesEnv names the new file a run writes its schedule to: one row per
// unit that ran, in the order units started, with its canonical position,
// training cells, start and wall time. scripts/replay-schedule.sh replays
// such a file on any number of simulated workers in canonical and in
// largest-first order (docs/performance.md#scaling): how the order units
// start in was chosen, and how a tail is told from a serial stretch.
const UnitTimesEnv = "FGRTBENCH_UNIT_TIMES"

// unitTimesHeader is the file's header row.
var unitTimesHeader = []string{"started", "canonical", "protocol", "dataset", "method", "repeat", "fold",
	"training_cells", "start_seconds", "wall_seconds", "failed"}

// checkUnitTimesPath refuses a path that exists (or is a link): the file
// is written only new, after the run, and never over anything.
func checkUnitTimesPath(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s: %s exists (the unit times are written only to a new file)", UnitTimesEnv, path)
	} else if !os.IsNotExist(err) {
		return fmt.Errorf("%s: %v", UnitTimesEnv, err)
	}
	return nil
}

// writeUnitTimes writes times, ordered by their start, to the new file
// path; a file it could not finish is removed.
func writeUnitTimes(path string, times []runner.UnitTime) (err error) {
	times = slices.Clone(times)
	slices.SortFunc(times, func(a, b runner.UnitTime) int { return a.Started - b.Started })
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("%s: %v (the unit times are written only to a new file)", UnitTimesEnv, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("%s: %v", UnitTimesEnv, cerr)
		}
		if err != nil {
			os.Remove(path)
		}
	}()
	w := csv.NewWriter(f)
	w.Write(unitTimesHeader)
	for _, t := range times {
		u := t.Unit
		w.Write([]string{strconv.Itoa(t.Started), strconv.Itoa(t.Canonical), u.Protocol, u.Dataset, u.Label,
			strconv.Itoa(u.Repeat), strconv.Itoa(u.Fold), strconv.FormatInt(t.Cells, 10),
			strconv.FormatFloat(t.Start.Seconds(), 'f', 6, 64), strconv.FormatFloat(t.Wall.Seconds(), 'f', 6, 64),
			strconv.FormatBool(t.Failed)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("%s: %v", UnitTimesEnv, err)
	}
	return nil
}
