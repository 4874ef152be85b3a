package c45_test

import (
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/c45"
	"github.com/fgrtbench/fgrtbench/learn"
)

func TestC45Spec(t *testing.T) {
	m, err := lookup("c45")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		grid string
		want []c45.Config
	}{
		{"default", []c45.Config{c45.DefaultConfig()}},
		{"text", []c45.Config{
			{Confidence: 0.1, MinObj: 2, SubtreeRaising: true, Collapse: true},
			{Confidence: 0.25, MinObj: 2, SubtreeRaising: true, Collapse: true},
		}},
	}
	for _, tc := range cases {
		cfgs, err := m.Expand(tc.grid, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cfgs) != len(tc.want) {
			t.Fatalf("grid %s: %d points, want %d", tc.grid, len(cfgs), len(tc.want))
		}
		for i, cfg := range cfgs {
			tr, err := m.New(cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := tr.(*c45.Trainer).Config(); got != tc.want[i] {
				t.Errorf("grid %s point %d: %+v, want %+v", tc.grid, i, got, tc.want[i])
			}
		}
	}
	for _, bad := range []map[string]string{
		{"confidence": "0"}, {"confidence": "0.7"}, {"min_obj": "0"}, {"unpruned": "maybe"}, {"depth": "3"},
	} {
		cfg, err := m.Resolve(bad)
		if err == nil {
			_, err = m.New(cfg, 1)
		}
		if err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// lookup finds one of the package's specs by method name, as the
// registry's Lookup does.
func lookup(name string) (*learn.Spec, error) {
	specs := map[string]*learn.Spec{
		"c45": c45.Spec,
	}
	if s, ok := specs[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("no spec %q", name)
}
