package reporting

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/reports"
)

// TestSafeCommand: no path of the machine that ran a study reaches a
// report: every argument naming one keeps only its last element.
func TestSafeCommand(t *testing.T) {
	for _, c := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"fgrtbench", "run", "--spec", "/home/me/s.yaml", "--out=/data/out", "-j", "4"}, "fgrtbench run --spec s.yaml --out=out -j 4"},
		{[]string{"report", "--results", "runs/a/out/"}, "report --results out"},
		{[]string{"reproduce", "--datasets=wine,iris"}, "reproduce --datasets=wine,iris"},
		{nil, ""},
	} {
		if got := safeCommand(c.cmd); got != c.want {
			t.Errorf("safeCommand(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// TestPartialNote: without a study identity only a shard or a partial
// merge can be told; a complete older study says nothing.
func TestPartialNote(t *testing.T) {
	for _, c := range []struct {
		name string
		m    manifest.Manifest
		want string
	}{
		{"whole, older manifest", manifest.Manifest{Shard: "all"}, ""},
		{"no shard recorded", manifest.Manifest{}, ""},
		{"one shard", manifest.Manifest{Shard: "1/3"}, " (shard 1/3; merge every shard and report the merged directory)"},
		{"partial merge", manifest.Manifest{Shard: "merged", Partial: &manifest.Partial{MissingShards: []string{"0/3", "2/3"}}}, "merged without shard 0/3, 2/3"},
	} {
		if got := partialNote(&c.m, nil); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAbsentManifest: results without a manifest say why, without the
// directory's path, and carry a partial merge's mark from results.csv.
func TestAbsentManifest(t *testing.T) {
	dir := t.TempDir()
	partial, facts := absentManifest(dir, os.ErrNotExist)
	want := []reports.Fact{{Key: "manifest", Value: "absent (no manifest.json beside results.csv)"}}
	if partial != "" || !reflect.DeepEqual(facts, want) {
		t.Errorf("no manifest: %q %v, want %v", partial, facts, want)
	}
	_, facts = absentManifest(dir, errors.New("read "+dir+"/manifest.json: bad JSON"))
	if got := facts[0].Value; got != "absent (unreadable: read <results>/manifest.json: bad JSON)" {
		t.Errorf("unreadable manifest: %q", got)
	}
	text := "# partial: 3 of 5 units; see manifest.json\nkey,method\n"
	if err := os.WriteFile(filepath.Join(dir, "results.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	partial, facts = absentManifest(dir, os.ErrNotExist)
	if partial != "3 of 5 units (the mark in results.csv; its manifest.json is absent)" || len(facts) != 2 || facts[0].Key != "PARTIAL" {
		t.Errorf("partial mark: %q %v", partial, facts)
	}
}

// TestRowsUsed: the rows used are reported only when every protocol used
// the same rows.
func TestRowsUsed(t *testing.T) {
	same := manifest.Dataset{Use: []manifest.DatasetUse{{RowsUsed: 10, ClassCounts: []int{4, 6}}, {RowsUsed: 10, ClassCounts: []int{4, 6}}}}
	differ := manifest.Dataset{Use: []manifest.DatasetUse{{RowsUsed: 10, ClassCounts: []int{4, 6}}, {RowsUsed: 9, ClassCounts: []int{4, 5}}}}
	for _, c := range []struct {
		name   string
		d      manifest.Dataset
		rows   int
		counts []int
	}{{"same", same, 10, []int{4, 6}}, {"differ", differ, 0, nil}, {"none recorded", manifest.Dataset{}, 0, nil}} {
		rows, counts := rowsUsed(c.d)
		if rows != c.rows || !slices.Equal(counts, c.counts) {
			t.Errorf("%s: %d %v, want %d %v", c.name, rows, counts, c.rows, c.counts)
		}
	}
}

// TestMemoryFact is the report's run-section line.
func TestMemoryFact(t *testing.T) {
	cases := []struct {
		m    manifest.Memory
		want string
	}{
		{manifest.Memory{BudgetBytes: 1.3e9, Budget: "--memory 1.3GB", PeakRSSBytes: 1_234_000_000},
			"budget 1.30 GB (--memory 1.3GB); peak resident memory 1.23 GB by the end of the run"},
		{manifest.Memory{PeakRSSBytes: 987_000_000}, "no budget; peak resident memory 987.00 MB by the end of the run"},
		{manifest.Memory{BudgetBytes: 12 << 30, Budget: "the default, 50% of 25.77 GB (MemTotal of /proc/meminfo)"},
			"budget 12.88 GB (the default, 50% of 25.77 GB (MemTotal of /proc/meminfo)); peak resident memory unknown"},
	}
	for _, c := range cases {
		if got := memoryFact(&c.m); got != c.want {
			t.Errorf("memoryFact(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}
