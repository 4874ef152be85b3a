package datasets

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	nan := math.NaN()
	d := &Dataset{
		Name:    "toy",
		Inputs:  []Attribute{{Name: "a", Type: "real"}, {Name: "b", Type: "nominal", Domain: []string{"x", "y"}}},
		Classes: []string{"0", "1"},
		X:       [][]float64{{1, 0}, {nan, nan}, {2, nan}, {3, 1}},
		Y:       []int{0, 1, 0, 1},
	}
	info := Info{Name: "toy", Instances: 4, Features: 2, Classes: 2, Nominal: 1, MissingRows: 2, Domain: "Test", PaperInstances: 5}
	s := Summarize(d, info)
	if s.Instances != 4 || s.Features != 2 || s.Nominal != 1 || s.Classes != 2 || s.MissingRows != 2 || s.MissingCells != 3 || s.Domain != "Test" || s.PaperInstances != 5 {
		t.Errorf("summary %+v", s)
	}
	notes := strings.Join(s.Notes, " | ")
	for _, want := range []string{"file has 4 rows, paper's table 5", "2 rows with missing values (3 cells); every protocol drops them (missing-value policy drop, the default), leaving 2; impute keeps them under the clean and holdout protocols"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	if strings.Contains(notes, "registry mismatch") {
		t.Errorf("unexpected mismatch note: %q", notes)
	}
	info.Nominal = 0
	if s := Summarize(d, info); !strings.Contains(strings.Join(s.Notes, " "), "registry mismatch: dataset toy") {
		t.Errorf("shape mismatch not flagged: %v", s.Notes)
	}
	// A dataset outside the registry gets no paper columns and no notes.
	if s := Summarize(d, Info{}); s.PaperInstances != 0 || len(s.Notes) != 1 {
		t.Errorf("unregistered: %+v", s)
	}
}

func TestWriteSummaryTable(t *testing.T) {
	rows := []Summary{
		{Name: "spambase", Instances: 4597, Features: 57, Classes: 2, Domain: "Text/Email", PaperInstances: 4601, Notes: []string{"n1", "n2"}},
		{Name: "zoo", Instances: 101, Features: 16, Nominal: 16, Classes: 7, Domain: "Biology"},
	}
	var buf bytes.Buffer
	if err := WriteSummaryTable(&buf, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("table:\n%s", buf.String())
	}
	if !strings.HasPrefix(lines[1], "spambase ") || !strings.Contains(lines[1], "4,597") || !strings.HasSuffix(lines[1], "4,601  n1; n2") {
		t.Errorf("spambase line %q", lines[1])
	}
	if !strings.HasSuffix(lines[2], " -") || !strings.HasPrefix(lines[2], "zoo ") {
		t.Errorf("zoo line %q (no paper count -> '-', no trailing blanks)", lines[2])
	}
	// Columns line up: "instances" ends where the counts end.
	end := strings.Index(lines[0], "instances") + len("instances")
	if lines[1][end-5:end] != "4,597" || lines[2][end-3:end] != "101" {
		t.Errorf("misaligned:\n%s", buf.String())
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 4597: "4,597", 1234567: "1,234,567", -4601: "-4,601"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
