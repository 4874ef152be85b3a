package manifest

import (
	"runtime"
	"testing"
)

func TestWriteReadRoundTrip(t *testing.T) {
	m := New(map[string]any{"protocols": []string{"paper"}}, 2, "0/3")
	m.Datasets = []Dataset{{Name: "wine", Path: "/x/wine.dat", NormalizedSHA256: "abc", Rows: 178}}
	m.Units, m.Ran = 10, 9
	dir := t.TempDir()
	if err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.GoVersion != runtime.Version() || got.Jobs != 2 || got.Shard != "0/3" || got.Units != 10 || got.Ran != 9 ||
		len(got.Datasets) != 1 || got.Datasets[0] != m.Datasets[0] || got.NumCPU != runtime.NumCPU() || got.Module == "" {
		t.Fatalf("round trip: %+v", got)
	}
	if !got.Start.Equal(m.Start) {
		t.Fatalf("start %v != %v", got.Start, m.Start)
	}
}
