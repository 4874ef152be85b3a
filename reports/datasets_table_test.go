package reports

import (
	"math"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// TestDatasetsTableRowsUsed: the table shows the rows in the file beside
// the rows used, and the class balance and majority rate of the rows used;
// without the manifest's record of the rows used, a dataset with missing
// rows shows no balance rather than the file's (a wrong majority rate),
// and a user's file shows what the manifest recorded of it.
func TestDatasetsTableRowsUsed(t *testing.T) {
	known := []DatasetInfo{{Name: "hepatitis", Instances: 80, FileRows: 155, Features: 19, Nominal: 0, Classes: 2, Missing: 75, Domain: "Medical"}}
	cases := []struct {
		name string
		d    analysis.Dataset
		want string
	}{
		{"recorded", analysis.Dataset{Name: "hepatitis", Rows: 155, ClassCounts: []int{32, 123}, RowsUsed: 80, ClassCountsUsed: []int{13, 67}, MajorityRate: 67.0 / 80},
			"hepatitis | 155 | 80 | 19 | 0 | 2 | 13:67 | 83.75 | 75 |"},
		{"imputed", analysis.Dataset{Name: "hepatitis", Rows: 155, ClassCounts: []int{32, 123}, RowsUsed: 155, ClassCountsUsed: []int{32, 123}, MajorityRate: 123.0 / 155, CellsImputed: 167},
			"hepatitis | 155 | 155 | 19 | 0 | 2 | 32:123 | 79.35 | 75 |"},
		{"an older manifest", analysis.Dataset{Name: "hepatitis", Rows: 155, ClassCounts: []int{32, 123}, MajorityRate: 123.0 / 155},
			"hepatitis | 155 | 80 | 19 | 0 | 2 | — | — | 75 |"},
		{"a user's file", analysis.Dataset{Name: "mine", Rows: 300, ClassCounts: []int{180, 120}, RowsUsed: 270, ClassCountsUsed: []int{150, 120},
			Features: 2, NominalFeatures: 1, MissingRows: 30, MajorityRate: 150.0 / 270}, "mine | 300 | 270 | 2 | 1 | 2 | 150:120 | 55.56 | 30 |"},
		{"a user's file, older manifest", analysis.Dataset{Name: "mine", Rows: 300, MajorityRate: math.NaN()}, "mine | 300 | — | — | — | — | — | — | — |"},
	}
	for _, c := range cases {
		a := &analysis.Analysis{}
		a.Study.Datasets = []analysis.Dataset{c.d}
		tab := DatasetsTable(datasetRows(a, known))
		if note := tab.Notes[len(tab.Notes)-1]; (c.d.CellsImputed > 0) != strings.HasPrefix(note, "Missing cells imputed (missing-value policy impute): hepatitis (167 cells);") {
			t.Errorf("%s: last note %q", c.name, note)
		}
		var cells []string
		for _, e := range tab.Rows[0] {
			cells = append(cells, e.Text)
		}
		if got := strings.Join(cells, " | "); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: row\n%s\nwant it to begin\n%s", c.name, got, c.want)
		}
	}
}

// TestDatasetsTablePaperOnlyWhereItApplies: the "Differs from paper" column
// and the note on the paper's rows appear only for the paper's datasets
// that have them; a study of the user's own files shows neither, and names
// its identity as the table's content identity, shortened with its kind.
func TestDatasetsTablePaperOnlyWhereItApplies(t *testing.T) {
	const content = "content:87aa5f10c2d94b3e6a7781d0e5f1c2b3a4d5e6f708192a3b4c5d6e7f8091a2b3"
	// The registry's checksums: a dataset is the paper's by its name and
	// its file (analysis.PaperDataset).
	keelSum := func(name string) string {
		info, err := datasets.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return info.NormalizedSHA256
	}
	wine, zoo, hep, derm, spam := keelSum("wine"), keelSum("zoo"), keelSum("hepatitis"), keelSum("dermatology"), keelSum("spambase")
	full := "The authors' results for hepatitis and dermatology come from their complete rows only (80 and 358); the KEEL spambase file has 4,597 rows where the paper lists 4,601."
	cases := []struct {
		name       string
		datasets   []analysis.Dataset
		differs    bool   // the table has the paper's column
		idHeader   string // the identity column's header
		id         string // the first row's identity cell
		paperNote  string // "" = no note on the paper's rows
		identityIn string // the first note names the identity so
	}{
		{"own file", []analysis.Dataset{{Name: "mine.csv", Rows: 300, SHA256: content}}, false, "Identity", "content:87aa5f10c2d9…", "",
			"The identity is the SHA-256 of the table as parsed (content:…; docs/data.md"},
		{"paper subset without the noted datasets", []analysis.Dataset{{Name: "wine", SHA256: wine}, {Name: "zoo", SHA256: zoo}}, true, "SHA-256 (normalised)", wine[:12] + "…", "",
			"The checksum is the normalised SHA-256 of the file"},
		{"hepatitis alone", []analysis.Dataset{{Name: "hepatitis", SHA256: hep}}, true, "SHA-256 (normalised)", hep[:12] + "…",
			"The authors' results for hepatitis come from its complete rows only (80).", "The checksum is the normalised SHA-256 of the file"},
		{"the paper's three", []analysis.Dataset{{Name: "dermatology", SHA256: derm}, {Name: "hepatitis", SHA256: hep}, {Name: "spambase", SHA256: spam}}, true, "SHA-256 (normalised)", derm[:12] + "…",
			full, "The checksum is the normalised SHA-256 of the file"},
		{"own file beside a paper dataset", []analysis.Dataset{{Name: "mine.csv", SHA256: content}, {Name: "spambase", SHA256: spam}}, true, "Identity", "content:87aa5f10c2d9…",
			"The KEEL spambase file has 4,597 rows where the paper lists 4,601.", "(content:…) for a file of your own, and the normalised SHA-256 of the file for the paper's KEEL datasets"},
		// A file of the user's own named like one of the paper's is not it.
		{"own hepatitis", []analysis.Dataset{{Name: "hepatitis", SHA256: content}}, false, "Identity", "content:87aa5f10c2d9…", "",
			"The identity is the SHA-256 of the table as parsed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := &analysis.Analysis{}
			a.Study.Datasets = c.datasets
			tab := DatasetsTable(datasetRows(a, nil))
			hasDiffers := tab.Header[len(tab.Header)-1] == "Differs from paper"
			if hasDiffers != c.differs || len(tab.Align) != len(tab.Header) || len(tab.Rows[0]) != len(tab.Header) {
				t.Errorf("header %q (align %q, row of %d cells), want the paper's column: %v", tab.Header, tab.Align, len(tab.Rows[0]), c.differs)
			}
			if got := gridCell(t, tab, tab.Rows[0], c.idHeader).Text; got != c.id {
				t.Errorf("identity cell %q, want %q", got, c.id)
			}
			if !strings.Contains(tab.Notes[0], c.identityIn) {
				t.Errorf("first note %q lacks %q", tab.Notes[0], c.identityIn)
			}
			var paperNote string
			for _, n := range tab.Notes[1:] {
				if strings.Contains(n, "4,597") || strings.Contains(n, "complete rows only") {
					paperNote = n
				}
			}
			if paperNote != c.paperNote {
				t.Errorf("paper note %q, want %q", paperNote, c.paperNote)
			}
			if len(tab.CSVHeader) != len(tab.CSVRows[0]) {
				t.Errorf("CSV header of %d columns, row of %d", len(tab.CSVHeader), len(tab.CSVRows[0]))
			}
		})
	}
}
