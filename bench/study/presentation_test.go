package study

import (
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestMethodEntries: the manifest names each label of the study with its
// base's display name and registry order (-1 for a base the registry does
// not know, such as the label fgrt-fixed of method fgrt) and says which
// methods are stochastic.
func TestMethodEntries(t *testing.T) {
	var ms []ResolvedMethod
	for _, s := range []MethodSpec{{Name: "fgrt"}, {Name: "fgrt", Label: "fgrt-fixed"}, {Name: "cart", Grid: "text"}, {Name: "fga"}} {
		m, err := methods.Lookup(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, ResolvedMethod{Spec: s, Label: s.ResultLabel(), Method: m})
	}
	want := []results.Method{
		{Label: "fgrt", Method: "fgrt", DisplayName: "FGRT", Order: 0},
		{Label: "fgrt-fixed", Method: "fgrt", DisplayName: "FGRT (Q1+Q2 fixed)", Order: -1},
		{Label: "cart@text", Method: "cart", DisplayName: "CART", Order: 2},
		{Label: "fga", Method: "fga", DisplayName: "FGA", Order: 6, Stochastic: true},
	}
	if got := Entries(ms); !reflect.DeepEqual(got, want) {
		t.Errorf("methodEntries:\n got %+v\nwant %+v", got, want)
	}
}
