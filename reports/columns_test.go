package reports

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// csvField is the value of the CSV column headed name in row of tab. A
// header the table lacks fails the test, so that a renamed or removed
// column cannot leave a test reading some other column.
func csvField(t testing.TB, tab Table, row []string, name string) string {
	t.Helper()
	return byHeader(t, tab.Name, tab.CSVHeader, row, name)
}

// gridCell is the entry of the grid column headed header in row of tab,
// failing the test when the grid has no such column.
func gridCell(t testing.TB, tab Table, row []Entry, header string) Entry {
	t.Helper()
	return byHeader(t, tab.Name, tab.Header, row, header)
}

func byHeader[T any](t testing.TB, table string, headers []string, row []T, name string) T {
	t.Helper()
	i := slices.Index(headers, name)
	if i < 0 || len(row) != len(headers) {
		t.Fatalf("%s: no column %q in %q (row of %d values)", table, name, headers, len(row))
	}
	return row[i]
}

// TestDeclareDerivesGridAndCSV: one declaration gives the grid the shown
// columns and the CSV the written ones, in declaration order, with 'l'
// for an alignment left out; every row has a cell under every header.
func TestDeclareDerivesGridAndCSV(t *testing.T) {
	type pair struct {
		name string
		v    int
	}
	name := Column[pair]{Header: "Name", Show: func(p pair) Entry { return Entry{Text: p.name} }, CSV: "name", Write: func(p pair) string { return p.name }}
	shown := Column[pair]{Header: "Value", Align: 'r', Show: func(p pair) Entry { return Entry{Text: strconv.Itoa(p.v), Bold: p.v > 1} }}
	written := Column[pair]{CSV: "value", Write: func(p pair) string { return strconv.Itoa(p.v) }}
	rows := []pair{{"a", 1}, {"b", 2}}
	cases := []struct {
		name            string
		cols            []Column[pair]
		header, align   string
		grid            string
		csvHeader, csvs string
	}{
		{"both", []Column[pair]{name, shown, written}, "Name,Value", "lr", "a 1|b *2", "name,value", "a,1|b,2"},
		{"written before shown", []Column[pair]{written, shown, name}, "Value,Name", "rl", "1 a|*2 b", "value,name", "1,a|2,b"},
		{"shown only", []Column[pair]{shown}, "Value", "r", "1|*2", "", "|"},
		{"written only", []Column[pair]{written}, "", "", "|", "value", "1|2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tab Table
			declare(&tab, c.cols, rows)
			var grid, csvs []string
			for i, row := range tab.Rows {
				cells := make([]string, len(row))
				for j, e := range row {
					cells[j] = e.Text
					if e.Bold {
						cells[j] = "*" + e.Text
					}
				}
				grid = append(grid, strings.Join(cells, " "))
				csvs = append(csvs, strings.Join(tab.CSVRows[i], ","))
			}
			if got := strings.Join(tab.Header, ","); got != c.header || tab.Align != c.align {
				t.Errorf("grid header %q aligned %q, want %q aligned %q", got, tab.Align, c.header, c.align)
			}
			if got := strings.Join(grid, "|"); got != c.grid {
				t.Errorf("grid %q, want %q", got, c.grid)
			}
			if got := strings.Join(tab.CSVHeader, ","); got != c.csvHeader {
				t.Errorf("CSV header %q, want %q", got, c.csvHeader)
			}
			if got := strings.Join(csvs, "|"); got != c.csvs {
				t.Errorf("CSV rows %q, want %q", got, c.csvs)
			}
		})
	}
}

// TestPivotColumnsDashTheMissing: a pivoted grid heads its key columns by
// display name, right-aligned, and shows a dash where a row lacks a key.
func TestPivotColumnsDashTheMissing(t *testing.T) {
	var tab Table
	rows := []pivotRow{{label: "wine", cells: map[string]Entry{"a": {Text: "1"}}}, {label: "Mean", cells: map[string]Entry{"b": {Text: "2", Bold: true}}}}
	declareGrid(&tab, pivotColumns("Dataset", []string{"a", "b"}, strings.ToUpper), rows)
	if got := strings.Join(tab.Header, ","); got != "Dataset,A,B" || tab.Align != "lrr" {
		t.Errorf("header %q aligned %q", got, tab.Align)
	}
	want := [][]Entry{{{Text: "wine"}, {Text: "1"}, {Text: "—"}}, {{Text: "Mean"}, {Text: "—"}, {Text: "2", Bold: true}}}
	if !slices.EqualFunc(tab.Rows, want, slices.Equal[[]Entry]) {
		t.Errorf("rows %v, want %v", tab.Rows, want)
	}
}
