package reports

import (
	"math"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
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
