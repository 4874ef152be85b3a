package reports

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
)

// Entry is one displayed table cell: a main text, an optional second line in
// small print (the paper's value and the difference), and bold.
type Entry struct {
	Text string
	Sub  string
	Bold bool
}

// Table is one rendered table: a display grid (Markdown, LaTeX, HTML) and
// a tidy machine-readable form (CSV). Both are filled from the table's
// column declaration (declare, declareGrid, declareCSV; see Column), never
// cell by cell, so that a header, its alignment and its cells cannot drift
// apart. Texts may use the symbols ± † Δ × − ≠ —, which the LaTeX writer
// translates.
type Table struct {
	// Name is the file stem: <Name>.md, <Name>.tex, <Name>.csv.
	Name  string
	Title string
	// Header and Align ('l', 'r' or 'c' per column) describe the grid,
	// Rows its cells: the shown columns of the declaration.
	Header []string
	Align  string
	Rows   [][]Entry
	Notes  []string
	// CSVHeader and CSVRows are the tidy form, the written columns of the
	// declaration: one row per value, numbers in fixed formats.
	CSVHeader []string
	CSVRows   [][]string
	// Linked tables are written as files only; REPORT.md links them with
	// Summary, one sentence.
	Linked  bool
	Summary string
	// Dir is the subdirectory of report/ the files go to ("" for report/).
	Dir string
}

// Markdown renders the table as a Markdown section (title, grid, notes).
func (t Table) Markdown() []byte {
	var b bytes.Buffer
	b.WriteString("### " + mdEscape(t.Title) + "\n\n")
	if len(t.Rows) == 0 {
		// An empty grid says nothing; a sentence says why it is empty.
		b.WriteString("No rows: these results hold nothing this table compares.\n")
		return b.Bytes()
	}
	b.WriteString("|")
	for _, h := range t.Header {
		b.WriteString(" " + mdEscape(h) + " |")
	}
	b.WriteString("\n|")
	for i := range t.Header {
		switch t.align(i) {
		case 'r':
			b.WriteString("---:|")
		case 'c':
			b.WriteString(":---:|")
		default:
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for _, e := range row {
			text := mdEscape(e.Text)
			if e.Bold && text != "" {
				text = "**" + text + "**"
			}
			if e.Sub != "" {
				text += " (" + mdEscape(e.Sub) + ")"
			}
			b.WriteString(" " + text + " |")
		}
		b.WriteString("\n")
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			b.WriteString("- " + mdEscape(n) + "\n")
		}
	}
	return b.Bytes()
}

func (t Table) align(i int) byte {
	if i < len(t.Align) {
		return t.Align[i]
	}
	return 'l'
}

// longRows is the row count above which a LaTeX table becomes a longtable
// that breaks across pages (a float taller than a page cannot be placed).
const longRows = 40

// LaTeX renders the table as a booktabs table environment.
func (t Table) LaTeX() []byte {
	if len(t.Rows) > longRows {
		return t.longLaTeX()
	}
	var b bytes.Buffer
	wide := len(t.Header) > 6
	if wide {
		b.WriteString("% requires \\usepackage{booktabs,graphicx}\n")
	} else {
		b.WriteString("% requires \\usepackage{booktabs}\n")
	}
	b.WriteString("\\begin{table}[htbp]\n\\centering\n")
	b.WriteString("\\caption{" + texEscape(t.Title) + "}\n")
	b.WriteString("\\label{tab:" + t.Name + "}\n")
	if wide {
		// Scaled to the text width, so that a wide table fits the page.
		b.WriteString("\\resizebox{\\linewidth}{!}{%\n")
	}
	b.WriteString("\\begin{tabular}{")
	for i := range t.Header {
		b.WriteByte(t.align(i))
	}
	b.WriteString("}\n\\toprule\n")
	b.WriteString(t.texHeader())
	b.WriteString(" \\\\\n\\midrule\n")
	for _, row := range t.Rows {
		b.WriteString(t.texRow(row) + " \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if wide {
		b.WriteString("}\n")
	}
	if len(t.Notes) > 0 {
		b.WriteString("\\par\\smallskip\n{\\footnotesize\n")
		for _, n := range t.Notes {
			b.WriteString(texEscape(n) + "\\par\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString("\\end{table}\n")
	return b.Bytes()
}

// texHeader is the header cells joined as a LaTeX row (without its end).
func (t Table) texHeader() string {
	cells := make([]string, len(t.Header))
	for i, h := range t.Header {
		cells[i] = texEscape(h)
	}
	return strings.Join(cells, " & ")
}

// texRow is a row's cells joined as a LaTeX row (without its end): bold
// where marked, a sub-line in small print under the cell's text.
func (t Table) texRow(row []Entry) string {
	cells := make([]string, len(row))
	for i, e := range row {
		text := texEscape(e.Text)
		if e.Bold && text != "" {
			text = "\\textbf{" + text + "}"
		}
		if e.Sub != "" {
			text = "\\begin{tabular}[t]{@{}" + string(t.align(i)) + "@{}}" + text + "\\\\ {\\scriptsize " + texEscape(e.Sub) + "}\\end{tabular}"
		}
		cells[i] = text
	}
	return strings.Join(cells, " & ")
}

// longLaTeX renders a long table as a booktabs longtable whose header
// repeats on every page, in small print.
func (t Table) longLaTeX() []byte {
	var b bytes.Buffer
	b.WriteString("% requires \\usepackage{booktabs,longtable}\n{\\small\n\\begin{longtable}{")
	for i := range t.Header {
		b.WriteByte(t.align(i))
	}
	b.WriteString("}\n\\caption{" + texEscape(t.Title) + "}\\label{tab:" + t.Name + "}\\\\\n\\toprule\n")
	b.WriteString(t.texHeader() + " \\\\\n\\midrule\n\\endhead\n\\bottomrule\n\\endfoot\n")
	for _, row := range t.Rows {
		cells := make([]string, len(row))
		for i, e := range row {
			text := texEscape(e.Text)
			if e.Bold && text != "" {
				text = "\\textbf{" + text + "}"
			}
			if e.Sub != "" {
				text += " (" + texEscape(e.Sub) + ")"
			}
			cells[i] = text
		}
		b.WriteString(strings.Join(cells, " & ") + " \\\\\n")
	}
	b.WriteString("\\end{longtable}\n")
	for _, n := range t.Notes {
		b.WriteString("{\\footnotesize " + texEscape(n) + "\\par}\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// CSV renders the tidy form.
func (t Table) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(t.CSVHeader)
	_ = w.WriteAll(t.CSVRows) // writes to a buffer cannot fail
	return b.Bytes()
}

// Brackets are escaped too: a name such as [x](http://…) must not become a
// link in REPORT.md.
var mdReplacer = strings.NewReplacer("|", "\\|", "*", "\\*", "_", "\\_", "<", "\\<", ">", "\\>", "[", "\\[", "]", "\\]")

func mdEscape(s string) string { return mdReplacer.Replace(s) }

var texReplacer = strings.NewReplacer(
	"\\", "\\textbackslash{}", "&", "\\&", "%", "\\%", "$", "\\$", "#", "\\#", "_", "\\_",
	"{", "\\{", "}", "\\}", "~", "\\textasciitilde{}", "^", "\\textasciicircum{}",
	"±", "$\\pm$", "†", "$^{\\dagger}$", "Δ", "$\\Delta$", "×", "$\\times$", "−", "$-$",
	"≠", "$\\neq$", "—", "---", "χ²", "$\\chi^2$", "α", "$\\alpha$", "≤", "$\\leq$", "≥", "$\\geq$",
	"*", "$^{*}$", "–", "--", "‡", "$^{\\ddagger}$", "<", "$<$", ">", "$>$", "§", "\\S{}", "ρ", "$\\rho$", "š", "\\v{s}", "²", "$^2$",
)

func texEscape(s string) string { return texReplacer.Replace(s) }

// pct formats a fraction as a percentage with two decimals.
func pct(v float64) string { return fixed(v*100, 2) }

// fixed formats v with dec decimals, never printing a negative zero.
func fixed(v float64, dec int) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// signed formats v with an explicit sign ("+0.00" for zero).
func signed(v float64, dec int) string {
	s := fixed(v, dec)
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// csvNum formats a number for CSV output: six decimals.
func csvNum(v float64) string { return fixed(v, 6) }
