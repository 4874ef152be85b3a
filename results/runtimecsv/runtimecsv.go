// Package runtimecsv defines runtime.csv, the output of the training-time
// study: one row per timed fit. Package timing writes it; plots and the
// report read it.
package runtimecsv

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/safefile"

	"github.com/fgrtbench/fgrtbench/internal/owned"
)

// FileName is the name of the training-time study's output (written by
// package timing/paperruntime, drawn by package plots).
const FileName = "runtime.csv"

// Study names in runtime.csv. Real-data studies are named RealPrefix+dataset.
const (
	StudySamples  = "samples"
	StudyFeatures = "features"
	RealPrefix    = "real/"
)

// Header is the column list of runtime.csv.
var Header = []string{"study", "method", "n_samples", "n_features", "trial", "fit_seconds"}

// Row is one timed fit of runtime.csv. NSamples is the size of the whole generated (or
// subsampled) data set, as the authors' plots use it; the fit itself sees
// its 80% training part.
type Row struct {
	Study      string
	Method     string
	NSamples   int
	NFeatures  int
	Trial      int
	FitSeconds float64
}

// Write writes runtime.csv rows with the header. Times are written with
// microsecond resolution.
func Write(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
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

// WriteFile writes runtime.csv through a temporary file and a
// rename, never over a file fgrtbench did not write (internal/owned).
func WriteFile(path string, rows []Row) error {
	d, err := owned.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	return d.Write(filepath.Base(path), func(w io.Writer) error { return Write(w, rows) })
}

// Read parses runtime.csv.
func Read(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("runtime.csv: %v", err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("runtime.csv: empty file")
	}
	if strings.Join(recs[0], ",") != strings.Join(Header, ",") {
		return nil, fmt.Errorf("runtime.csv: unexpected header %q", strings.Join(recs[0], ","))
	}
	var rows []Row
	for i, rec := range recs[1:] {
		line := i + 2
		if len(rec) != len(Header) {
			return nil, fmt.Errorf("runtime.csv:%d: %d fields, want %d", line, len(rec), len(Header))
		}
		var row Row
		row.Study, row.Method = rec[0], rec[1]
		ints := []*int{&row.NSamples, &row.NFeatures, &row.Trial}
		for k, dst := range ints {
			v, err := strconv.Atoi(rec[2+k])
			if err != nil {
				return nil, fmt.Errorf("runtime.csv:%d: column %s: %v", line, Header[2+k], err)
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

// ReadFile reads runtime.csv from a path.
func ReadFile(path string) ([]Row, error) {
	f, err := safefile.Open(path, safefile.ResultsCap)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rows, nil
}
