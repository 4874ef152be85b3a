package manifest

import (
	"reflect"
	"runtime"
	"strings"
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
		len(got.Datasets) != 1 || !reflect.DeepEqual(got.Datasets[0], m.Datasets[0]) || got.NumCPU != runtime.NumCPU() || got.Module == "" {
		t.Fatalf("round trip: %+v", got)
	}
	if !got.Start.Equal(m.Start) {
		t.Fatalf("start %v != %v", got.Start, m.Start)
	}
}

// TestLinkerSetBuildInfoWins: a binary built with -ldflags -X names its
// build even where neither a VCS stamp nor git is available.
func TestLinkerSetBuildInfoWins(t *testing.T) {
	defer func(v, r, m string) { linkVersion, linkRevision, linkModified = v, r, m }(linkVersion, linkRevision, linkModified)
	linkVersion, linkRevision, linkModified = "v9.8.7", "0123456789abcdef0123456789abcdef01234567", "true"
	m := New(nil, 1, "all")
	if m.Version != "v9.8.7" || m.VCSRevision != linkRevision || !m.VCSModified {
		t.Fatalf("version %q revision %q modified %v", m.Version, m.VCSRevision, m.VCSModified)
	}
}

// TestContinueMarksAKilledRunUnfinished: a run killed before recording its
// end left "running" in the history; the next run of the directory keeps
// the entry, marked unfinished, and appends its own.
func TestContinueMarksAKilledRunUnfinished(t *testing.T) {
	prev := &Manifest{History: []Invocation{{Status: "complete"}, {Status: "running"}}}
	m := &Manifest{}
	m.Continue(prev, "running")
	var got []string
	for _, h := range m.History {
		got = append(got, h.Status)
	}
	if strings.Join(got, ",") != "complete,unfinished,running" {
		t.Errorf("history %v, want complete,unfinished,running", got)
	}
	if prev.History[1].Status != "running" {
		t.Error("Continue changed the previous manifest")
	}
}
