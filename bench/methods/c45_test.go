package methods

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/c45"
)

func TestC45Registration(t *testing.T) {
	m, err := Lookup("c45")
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
