package reporting

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/reports"
	reporthtml "github.com/fgrtbench/fgrtbench/reports/html"
)

// writeFiles builds the report, renders its HTML page (report/index.html)
// from the same analysis and the manifest's provenance, and writes every
// file: the page is one of the report's files, so the report's own
// bookkeeping covers it.
func writeFiles(opts reports.Options, m *manifest.Manifest) (*reports.Report, error) {
	rep, err := reports.Build(opts)
	if err != nil {
		return nil, err
	}
	in := reporthtml.Input{Analysis: rep.Analysis, Provenance: provenance(opts.Facts, m)}
	in.Files = append(in.Files, "REPORT.md")
	if rep.JSON != nil {
		in.Files = append(in.Files, "analysis.json")
	}
	for _, t := range rep.Tables {
		stem := filepath.ToSlash(filepath.Join(t.Dir, t.Name))
		in.Files = append(in.Files, stem+".csv", stem+".tex", stem+".md")
	}
	for n := range rep.Extra {
		in.Files = append(in.Files, n) // rules/<dataset>.md
	}
	addFigures(&in, rep.Dir, opts.Figures)
	in.PaperTables = paperTables(rep)
	if rep.HTML, err = reporthtml.Render(in); err != nil {
		return nil, err
	}
	return rep, rep.Write()
}

// addFigures lists the report's figures on the page, each PNG with the SVG
// twin the figure step draws beside it.
func addFigures(in *reporthtml.Input, reportDir string, figs []reports.Figure) {
	for _, f := range figs {
		rel, ok := strings.CutPrefix(filepath.ToSlash(f.Path), "report/")
		if !ok || filepath.IsAbs(f.Path) {
			continue // a figure outside the report directory has no relative link
		}
		in.Figures = append(in.Figures, reporthtml.Figure{Path: rel, Caption: f.Caption})
		if svg, ok := strings.CutSuffix(rel, ".png"); ok {
			if _, err := os.Stat(filepath.Join(reportDir, filepath.FromSlash(svg+".svg"))); err == nil {
				in.Files = append(in.Files, svg+".svg")
			}
		}
	}
}

// provenance is the page's account of the run: the report's run facts
// and the manifest's command history (paths reduced as in the facts).
func provenance(facts []reports.Fact, m *manifest.Manifest) reporthtml.Provenance {
	var p reporthtml.Provenance
	for _, f := range facts {
		p.Facts = append(p.Facts, reporthtml.Fact{Key: f.Key, Value: f.Value})
	}
	if m == nil {
		return p
	}
	const stamp = "2006-01-02 15:04:05Z"
	for _, h := range m.History {
		inv := reporthtml.Invocation{Start: h.Start.UTC().Format(stamp), Command: safeCommand(h.Command), Version: h.Version, Revision: h.VCSRevision, Shard: h.Shard}
		inv.End = "(did not finish)"
		if !h.End.IsZero() {
			inv.End = h.End.UTC().Format(stamp)
		}
		if len(inv.Revision) > 12 {
			inv.Revision = inv.Revision[:12]
		}
		if h.VCSModified {
			inv.Revision += ", modified"
		}
		p.History = append(p.History, inv)
	}
	return p
}

// paperTablePrefixes name, in the page's order, the report tables that
// compare the paper study with the paper: its printed accuracies, the
// authors' committed means, complexity, the protocol gap and partition
// optimisation.
var paperTablePrefixes = []string{"paper-", "complexity-", "protocol-gap", "partition-"}

// paperTables passes the paper study's comparison tables to the page as
// package reports rendered them, so that index.html shows the numbers of
// REPORT.md's tables; none for a study that is not the paper's.
func paperTables(rep *reports.Report) []reporthtml.Table {
	if rep.Analysis == nil || rep.Analysis.Reproduction == nil {
		return nil
	}
	var out []reporthtml.Table
	for _, prefix := range paperTablePrefixes {
		for _, t := range rep.Tables {
			if t.Dir != "" || !strings.HasPrefix(t.Name, prefix) || len(t.Rows) == 0 {
				continue
			}
			ht := reporthtml.Table{Name: t.Name, Title: t.Title, Summary: t.Summary, Header: t.Header, Align: t.Align, Notes: t.Notes}
			for _, r := range t.Rows {
				row := make([]reporthtml.TableCell, len(r))
				for i, e := range r {
					row[i] = reporthtml.TableCell{Text: e.Text, Sub: e.Sub, Bold: e.Bold}
				}
				ht.Rows = append(ht.Rows, row)
			}
			out = append(out, ht)
		}
	}
	return out
}
