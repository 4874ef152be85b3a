package plots

import "github.com/fgrtbench/fgrtbench/results"

// paperMethods is the presentation the runner records in a manifest for
// the paper's methods and the fixed FGRT variant (the registry's display
// names and order); the golden figures were drawn with it.
var paperMethods = results.PresentationOf([]results.Method{
	{Label: "fgrt", Method: "fgrt", DisplayName: "FGRT", Order: 0},
	{Label: "fgrt-opt", Method: "fgrt-opt", DisplayName: "FGRT*", Order: 1},
	{Label: "cart", Method: "cart", DisplayName: "CART", Order: 2},
	{Label: "c45-entropy", Method: "c45-entropy", DisplayName: "C4.5 (entropy, paper)", Order: 3},
	{Label: "c45", Method: "c45", DisplayName: "C4.5 (J48)", Order: 4},
	{Label: "ripper", Method: "ripper", DisplayName: "RIPPER", Order: 5, Stochastic: true},
	{Label: "fga", Method: "fga", DisplayName: "FGA", Order: 6, Stochastic: true},
	{Label: "fgrt-fixed", Method: "fgrt", DisplayName: "FGRT (Q1+Q2 fixed)", Order: -1},
})
