package reports

// Column declares one column of a table, once
// (docs/report.md#table-columns): its header and alignment in the grid
// (Markdown, LaTeX, HTML) with how a row's cell is shown there, and its
// header in the tidy CSV with how a row's value is written there. A
// column with Show only is in the grid only (a value shown as mean ± sd is
// two CSV columns); one with Write only is in the CSV only (the protocol,
// the method's label). Adding a column to a table is one Column in its
// declaration; the renderers and the tests, which address CSV values by
// header, follow.
type Column[R any] struct {
	// Header is the grid's header, Align its alignment ('l', 'r' or 'c';
	// 'l' when zero).
	Header string
	Align  byte
	Show   func(R) Entry
	// CSV is the CSV header.
	CSV   string
	Write func(R) string
}

// declare fills t's grid and CSV from one declaration: every row in both.
func declare[R any](t *Table, cols []Column[R], rows []R) {
	declareGrid(t, cols, rows)
	declareCSV(t, cols, rows)
}

// declareGrid fills t's grid (header, alignment, rows) from the columns
// that are shown. Used alone where the grid's rows are not the CSV's (a
// pivot: datasets × methods over one CSV row per cell).
func declareGrid[R any](t *Table, cols []Column[R], rows []R) {
	t.Header, t.Align = nil, ""
	for _, c := range cols {
		if c.Show == nil {
			continue
		}
		align := c.Align
		if align == 0 {
			align = 'l'
		}
		t.Header = append(t.Header, c.Header)
		t.Align += string(align)
	}
	t.Rows = cells(cols, rows, func(c Column[R]) func(R) Entry { return c.Show })
}

// declareCSV fills t's tidy form from the columns that are written.
func declareCSV[R any](t *Table, cols []Column[R], rows []R) {
	t.CSVHeader = nil
	for _, c := range cols {
		if c.Write != nil {
			t.CSVHeader = append(t.CSVHeader, c.CSV)
		}
	}
	t.CSVRows = cells(cols, rows, func(c Column[R]) func(R) string { return c.Write })
}

// cells is each row's cells under the columns whose function of the form
// (Show or Write, as form picks) is set, in declaration order.
func cells[R, T any](cols []Column[R], rows []R, form func(Column[R]) func(R) T) [][]T {
	var out [][]T
	for _, r := range rows {
		var row []T
		for _, c := range cols {
			if f := form(c); f != nil {
				row = append(row, f(r))
			}
		}
		out = append(out, row)
	}
	return out
}

// pivotRow is one row of a pivoted grid (datasets × methods): its label
// and its entries by column key.
type pivotRow struct {
	label string
	cells map[string]Entry
}

// pivotColumns declares a pivoted grid: the rows' labels under first, then
// one right-aligned column per key under its header; a row without a key
// shows a dash.
func pivotColumns(first string, keys []string, header func(string) string) []Column[pivotRow] {
	cols := []Column[pivotRow]{{Header: first, Show: func(r pivotRow) Entry { return Entry{Text: r.label} }}}
	for _, k := range keys {
		cols = append(cols, Column[pivotRow]{Header: header(k), Align: 'r', Show: func(r pivotRow) Entry {
			if e, ok := r.cells[k]; ok {
				return e
			}
			return Entry{Text: "—"}
		}})
	}
	return cols
}
