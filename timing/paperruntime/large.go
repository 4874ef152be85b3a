package paperruntime

import (
	"bufio"
	"io"
	"strconv"

	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/nprand"
)

// LargeRows and LargeCols are the shape of the large-data benchmark's CSV
// file: 10^6 rows of 20 numeric inputs and a class of three labels (about
// 190 MB of text, a 160 MB float64 matrix).
const (
	LargeRows = 1_000_000
	LargeCols = 20
)

// WriteLargeCSV writes the large-data benchmark's file: a header
// x0..x{cols-1},class, then rows lines of cols numbers with six decimals
// and a label c0, c1 or c2. Row i's label is drawn first, then its values
// are standard normal deviates shifted by 0.3·label on every column j with
// j mod 3 ≠ 0, so a tree learns something and the study's fits are not
// trivial. The file is a function of rows and cols only (a fixed seed).
func WriteLargeCSV(w io.Writer, rows, cols int) error {
	g := &gaussSource{rs: nprand.New(SyntheticSeed)}
	bw := bufio.NewWriterSize(w, 1<<20)
	var line []byte
	for j := 0; j < cols; j++ {
		line = append(line, 'x')
		line = strconv.AppendInt(line, int64(j), 10)
		line = append(line, ',')
	}
	line = append(line, "class\n"...)
	if _, err := bw.Write(line); err != nil {
		return err
	}
	for i := 0; i < rows; i++ {
		c := g.rs.Randint(0, 3)
		line = line[:0]
		for j := 0; j < cols; j++ {
			v := g.next() + float64(0.3*float64(c)*float64(j%3))
			line = strconv.AppendFloat(line, v, 'f', 6, 64)
			line = append(line, ',')
		}
		line = append(line, 'c', byte('0'+c), '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteLargeCSVFile writes WriteLargeCSV's file to path (atomically, so
// an interrupted generation leaves no half file behind).
func WriteLargeCSVFile(path string, rows, cols int) error {
	return atomicfile.Write(path, func(w io.Writer) error { return WriteLargeCSV(w, rows, cols) })
}
