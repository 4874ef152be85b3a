package results

import (
	"encoding/csv"
	"fmt"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/owned"
)

// RuntimeFile is the name of the training-time study's output (written by
// package timing/paperruntime, drawn by package plots).
const RuntimeFile = "runtime.csv"

// Study names in runtime.csv. Real-data studies are named RealPrefix+dataset.
const (
	StudySamples  = "samples"
	StudyFeatures = "features"
	RealPrefix    = "real/"
)

// RuntimeHeader is the column list of runtime.csv.
var RuntimeHeader = []string{"study", "method", "n_samples", "n_features", "trial", "fit_seconds"}

// RuntimeRow is one timed fit of runtime.csv. NSamples is the size of the whole generated (or
// subsampled) data set, as the authors' plots use it; the fit itself sees
// its 80% training part.
type RuntimeRow struct {
	Study      string
	Method     string
	NSamples   int
	NFeatures  int
	Trial      int
	FitSeconds float64
}

// WriteRuntime writes runtime.csv rows with the header. Times are written with
// microsecond resolution.
func WriteRuntime(w io.Writer, rows []RuntimeRow) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(RuntimeHeader); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Study, r.Method, strconv.Itoa(r.NSamples), strconv.Itoa(r.NFeatures), strconv.Itoa(r.Trial),
			strconv.FormatFloat(r.FitSeconds, 'f', 6, 64)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteRuntimeFile writes runtime.csv through a temporary file and a
// rename, never over a file fgrtbench did not write (internal/owned).
func WriteRuntimeFile(path string, rows []RuntimeRow) error {
	d, err := owned.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	return d.Write(filepath.Base(path), func(w io.Writer) error { return WriteRuntime(w, rows) })
}

// ReadRuntime parses runtime.csv.
func ReadRuntime(r io.Reader) ([]RuntimeRow, error) {
	cr := csv.NewReader(r)
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("runtime.csv: %v", err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("runtime.csv: empty file")
	}
	if strings.Join(recs[0], ",") != strings.Join(RuntimeHeader, ",") {
		return nil, fmt.Errorf("runtime.csv: unexpected header %q", strings.Join(recs[0], ","))
	}
	var rows []RuntimeRow
	for i, rec := range recs[1:] {
		line := i + 2
		if len(rec) != len(RuntimeHeader) {
			return nil, fmt.Errorf("runtime.csv:%d: %d fields, want %d", line, len(rec), len(RuntimeHeader))
		}
		var row RuntimeRow
		row.Study, row.Method = rec[0], rec[1]
		ints := []*int{&row.NSamples, &row.NFeatures, &row.Trial}
		for k, dst := range ints {
			v, err := strconv.Atoi(rec[2+k])
			if err != nil {
				return nil, fmt.Errorf("runtime.csv:%d: column %s: %v", line, RuntimeHeader[2+k], err)
			}
			*dst = v
		}
		v, err := strconv.ParseFloat(rec[5], 64)
		if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("runtime.csv:%d: column fit_seconds: %q is not a non-negative time", line, rec[5])
		}
		row.FitSeconds = v
		rows = append(rows, row)
	}
	return rows, nil
}

// ReadRuntimeFile reads runtime.csv from a path.
func ReadRuntimeFile(path string) ([]RuntimeRow, error) {
	f, err := safefile.Open(path, safefile.ResultsCap)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := ReadRuntime(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rows, nil
}
