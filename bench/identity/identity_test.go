package identity

import (
	"strings"
	"testing"
)

func group() Group {
	opts, err := OptionsMap(struct {
		Folds      int   `json:"folds"`
		Seed       int64 `json:"seed"`
		InnerFolds int   `json:"inner_folds"`
	}{5, 42, 5})
	if err != nil {
		panic(err)
	}
	return Group{
		Protocol: "clean", Options: opts, Dataset: "wine", DatasetSHA256: "ab12cd34ef56ab12cd34ef56",
		Label: "fgrt", Method: "fgrt", MethodVersion: 1, Configs: []string{"max_rules=10;patience=3", "max_rules=20;patience=3"},
		Repeats: 2, Folds: 5, Seeds: []int64{42, 43}, RowsPerUnit: 2,
	}
}

// TestHashIsStable pins the hash of a fixed group. Changing how identities
// are hashed makes every stored directory "another study"; if this test
// fails, that is what the change does to users' results.
func TestHashIsStable(t *testing.T) {
	s := NewStudy([]Group{group()})
	if got, want := s.Groups[0].Hash, "0bf44a9d3cd793df"; got != want {
		t.Fatalf("group hash %s, want %s", got, want)
	}
	if s.Units != 10 {
		t.Fatalf("units %d", s.Units)
	}
	u := s.UnitList()
	if len(u) != 10 || u[6].Key != "clean/wine/fgrt#"+s.Groups[0].Hash+"/r1/f1/s43" {
		t.Fatalf("units %v", u)
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	s.Groups[0].Configs[0] = "max_rules=11;patience=3"
	if err := s.Verify(); err == nil {
		t.Fatal("an edited group passed verification")
	}
}

func TestEveryFieldChangesTheHash(t *testing.T) {
	base := group().ComputeHash()
	mutations := map[string]func(*Group){
		"protocol":  func(g *Group) { g.Protocol = "paper" },
		"revision":  func(g *Group) { g.ProtocolRevision = 1 },
		"option":    func(g *Group) { g.Options["folds"] = 3 },
		"new opt":   func(g *Group) { g.Options["holdout"] = 0.2 },
		"dataset":   func(g *Group) { g.Dataset = "pima" },
		"checksum":  func(g *Group) { g.DatasetSHA256 = "00" },
		"label":     func(g *Group) { g.Label = "x" },
		"method":    func(g *Group) { g.Method = "cart" },
		"version":   func(g *Group) { g.MethodVersion = 2 },
		"selection": func(g *Group) { g.Selection = "sweep" },
		"config":    func(g *Group) { g.Configs[1] = "max_rules=30;patience=3" },
		"order":     func(g *Group) { g.Configs[0], g.Configs[1] = g.Configs[1], g.Configs[0] },
		"repeats":   func(g *Group) { g.Repeats = 1 },
		"folds":     func(g *Group) { g.Folds = 4 },
		"seeds":     func(g *Group) { g.Seeds = []int64{1, 2} },
		"rows":      func(g *Group) { g.RowsPerUnit = 1 },
	}
	for name, m := range mutations {
		g := group()
		m(&g)
		if g.ComputeHash() == base {
			t.Errorf("%s: hash unchanged", name)
		}
	}
}

func TestContainsAndDiff(t *testing.T) {
	a := group()
	b := group()
	b.Options["folds"] = 3
	b.Configs[1] = "max_rules=25;patience=3"
	other := group()
	other.Label = "cart"
	stored := NewStudy([]Group{a, other})
	if c := Contains(NewStudy([]Group{group(), other, func() Group { g := group(); g.Dataset = "zoo"; return g }()}), stored); c != nil {
		t.Fatalf("a superset conflicts: %+v", c)
	}
	c := Contains(NewStudy([]Group{b}), stored)
	if c == nil || c.Slot != "clean/wine/fgrt" || c.More != 1 {
		t.Fatalf("conflict %+v", c)
	}
	if !strings.Contains(c.Stored, "folds=5") || !strings.Contains(c.Current, "folds=3") ||
		!strings.Contains(c.Stored, "max_rules=20") || !strings.Contains(c.Current, "max_rules=25") {
		t.Fatalf("diff %q vs %q", c.Stored, c.Current)
	}
}

// TestDiffNamesAFileChecksumOfAnEarlierVersion: a directory written when
// data files were identified by their bytes meets the table identity of
// this version; the refusal says which side is the old file checksum,
// and two table identities are shown as they are.
func TestDiffNamesAFileChecksumOfAnEarlierVersion(t *testing.T) {
	old, cur := group(), group()
	old.DatasetSHA256 = strings.Repeat("ab", 32)
	cur.DatasetSHA256 = "content:" + strings.Repeat("cd", 32)
	stored, now := Diff(old, cur)
	if !strings.Contains(stored, "sha256=abababababab… (a file checksum: recorded by an fgrtbench that identified data files by their bytes)") ||
		now != "dataset wine sha256=content:cdcdcdcdcdcd…" {
		t.Errorf("diff %q vs %q", stored, now)
	}
	old.DatasetSHA256 = "content:" + strings.Repeat("ef", 32)
	if stored, _ := Diff(old, cur); stored != "dataset wine sha256=content:efefefefefef…" {
		t.Errorf("two table identities: %q", stored)
	}
}
