package protocol

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/internal/sksplit"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Assignment is a dataset's rows with their test fold under a protocol,
// for export to other tools.
type Assignment struct {
	Dataset string
	Schema  learn.Schema
	// Row is the 0-based index of each row among the data rows of the
	// source file, counting every data row (dropped ones included).
	Row  []int
	X    [][]float64
	Y    []int
	Fold []int
}

// Assign returns the fold assignment of repeat 0: for "paper" the stacked,
// preprocessed matrix the authors' learners saw; for "clean" the raw
// complete rows in file order with the fold seed of opts (the file's codes:
// the clean protocol recodes undeclared categories per fold, a tool given
// this file must code them on its training rows itself); for "holdout" the
// paper's stacked matrix, nominal codes fitted on the 80 % part as the
// holdout's learners see them, with the 20 % test part as fold 0 and the
// 80 % training part as fold -1.
func Assign(d *datasets.Dataset, protocolName string, opts Options) (*Assignment, error) {
	switch protocolName {
	case "paper":
		p, err := paperprep.Prepare(d)
		if err != nil {
			return nil, err
		}
		return &Assignment{Dataset: d.Name, Schema: p.Schema, Row: p.SrcRow, X: p.X, Y: p.Y, Fold: p.Fold}, nil
	case "clean":
		if err := opts.Validate(); err != nil {
			return nil, err
		}
		full, kept := d.CompleteRows()
		fold, err := sksplit.StratifiedKFold(full.Y, opts.Folds, true, uint32(opts.Seed))
		if err != nil {
			return nil, err
		}
		return &Assignment{Dataset: d.Name, Schema: full.Schema(), Row: kept, X: full.X, Y: full.Y, Fold: fold}, nil
	case "holdout":
		if opts.HoldoutTrain == HoldoutTrain64 {
			return nil, fmt.Errorf("%s: fold export of the holdout protocol covers the 80 %% training part only (holdout_train 80)", d.Name)
		}
		po := paperprep.PaperOptions()
		po.CodeParts = 2 // the codes the holdout's learners see: the 80 % part's
		p, err := paperprep.PrepareWith(d, po)
		if err != nil {
			return nil, err
		}
		fold := make([]int, len(p.Y))
		for i := range fold {
			if i < p.NTrain+p.NVal {
				fold[i] = -1
			}
		}
		return &Assignment{Dataset: d.Name, Schema: p.Schema, Row: p.SrcRow, X: p.X, Y: p.Y, Fold: fold}, nil
	}
	_, err := Lookup(protocolName)
	return nil, err
}

func formatCell(v float64, f learn.Feature) string {
	if math.IsNaN(v) {
		return "?"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// unseenCode reports whether v is a nominal code past f's categories: the
// code the categories that the coding rows never held share.
func unseenCode(v float64, f learn.Feature) bool {
	return f.Nominal && len(f.Categories) > 0 && v >= float64(len(f.Categories))
}

// WriteCSV writes row, fold, the features and class (as its label).
func (a *Assignment) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	cols := []string{"row", "fold"}
	for j := range a.Schema.Features {
		cols = append(cols, csvName(a.Schema.FeatureName(j)))
	}
	cols = append(cols, "class")
	fmt.Fprintln(bw, strings.Join(cols, ","))
	for i, row := range a.X {
		fmt.Fprintf(bw, "%d,%d", a.Row[i], a.Fold[i])
		for j, v := range row {
			bw.WriteByte(',')
			bw.WriteString(formatCell(v, a.Schema.Features[j]))
		}
		fmt.Fprintf(bw, ",%s\n", csvName(a.Schema.ClassName(a.Y[i])))
	}
	return bw.Flush()
}

func csvName(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

func arffName(s string) string {
	if s == "" || strings.ContainsAny(s, " ,'\"{}%\t") {
		return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
	}
	return s
}

// WriteARFF writes the rows with the given fold membership (test when
// test is true, training otherwise) as ARFF. Nominal inputs are written as
// their integer codes declared as nominal values, so Weka treats them as
// categories exactly as the codes the learners here see. A code past the
// schema's categories (a category the coding rows never held,
// docs/protocols.md#nominal-coding) is written as missing: J48 then
// treats it as this C4.5 treats a value beyond its branches.
func (a *Assignment) WriteARFF(w io.Writer, fold int, test bool) error {
	bw := bufio.NewWriter(w)
	part := "train"
	if test {
		part = "test"
	}
	fmt.Fprintf(bw, "@relation %s\n\n", arffName(fmt.Sprintf("%s-fold%d-%s", a.Dataset, fold, part)))
	codes := make([][]string, len(a.Schema.Features))
	for j, f := range a.Schema.Features {
		if f.Nominal {
			seen := map[float64]bool{}
			var vals []float64
			for _, row := range a.X {
				if v := row[j]; !math.IsNaN(v) && !unseenCode(v, f) && !seen[v] {
					seen[v] = true
					vals = append(vals, v)
				}
			}
			for k := 0; k < len(vals); k++ { // insertion sort: few categories
				for m := k; m > 0 && vals[m] < vals[m-1]; m-- {
					vals[m], vals[m-1] = vals[m-1], vals[m]
				}
			}
			for _, v := range vals {
				codes[j] = append(codes[j], strconv.FormatFloat(v, 'g', -1, 64))
			}
			fmt.Fprintf(bw, "@attribute %s {%s}\n", arffName(a.Schema.FeatureName(j)), strings.Join(codes[j], ","))
		} else {
			fmt.Fprintf(bw, "@attribute %s numeric\n", arffName(a.Schema.FeatureName(j)))
		}
	}
	var cls []string
	for k := range a.Schema.Classes {
		cls = append(cls, arffName(a.Schema.ClassName(k)))
	}
	fmt.Fprintf(bw, "@attribute class {%s}\n\n@data\n", strings.Join(cls, ","))
	for i, row := range a.X {
		if (a.Fold[i] == fold) != test {
			continue
		}
		for j, v := range row {
			if j > 0 {
				bw.WriteByte(',')
			}
			if unseenCode(v, a.Schema.Features[j]) {
				v = math.NaN()
			}
			bw.WriteString(formatCell(v, a.Schema.Features[j]))
		}
		fmt.Fprintf(bw, ",%s\n", arffName(a.Schema.ClassName(a.Y[i])))
	}
	return bw.Flush()
}

// Export writes <dir>/<dataset>-<protocol>-folds.csv and, per fold,
// <dataset>-<protocol>-fold<k>-{train,test}.arff. Every name is checked
// before the first is written: a file of the user's in the way of any of
// them (one the directory's marker does not list) is refused and nothing
// is written (package internal/owned).
func (a *Assignment) Export(dir, protocolName string) ([]string, error) {
	// The dataset's name may be a path (../x.csv, /data/x.csv): its stem,
	// reduced to one safe component, names the files, which therefore
	// always land in dir.
	stem := a.Dataset
	if datasets.IsDataFile(stem) {
		stem = strings.TrimSuffix(filepath.Base(stem), filepath.Ext(stem))
	}
	base := safename.Component(stem + "-" + protocolName)
	names := []string{base + "-folds.csv"}
	writers := []func(io.Writer) error{a.WriteCSV}
	maxFold := 0
	for _, f := range a.Fold {
		if f > maxFold {
			maxFold = f
		}
	}
	for k := 0; k <= maxFold; k++ {
		for _, test := range []bool{false, true} {
			part := "train"
			if test {
				part = "test"
			}
			k, test := k, test
			names = append(names, fmt.Sprintf("%s-fold%d-%s.arff", base, k, part))
			writers = append(writers, func(w io.Writer) error { return a.WriteARFF(w, k, test) })
		}
	}
	d, err := owned.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := d.Claim(names...); err != nil {
		return nil, err
	}
	var written []string
	for i, n := range names {
		if err := d.Write(n, writers[i]); err != nil {
			return written, err
		}
		written = append(written, filepath.Join(dir, n))
	}
	return written, nil
}

// ExportFolds writes the fold assignment the protocol gives d (Assign) to
// dir (Assignment.Export): the folds command's work. It returns the files
// written and the number of rows assigned.
func ExportFolds(d *datasets.Dataset, protocolName string, opts Options, dir string) ([]string, int, error) {
	a, err := Assign(d, protocolName, opts)
	if err != nil {
		return nil, 0, err
	}
	files, err := a.Export(dir, protocolName)
	return files, len(a.X), err
}
