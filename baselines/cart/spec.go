package cart

import "github.com/fgrtbench/fgrtbench/learn"

// Spec declares CART to the harness (method "cart"); EntropySpec declares
// the paper's "C4.5" as its code runs it ("c45-entropy"): the same tree with
// the entropy criterion. Config.Validate checks the bounds their parameters
// declare.
var (
	Spec = &learn.Spec{
		Name:    "cart",
		Version: 1,
		Doc: "CART: scikit-learn 1.2.1 DecisionTreeClassifier(criterion='gini', random_state=42, " +
			"min_samples_split=5, min_samples_leaf=2), ported node for node. Grid \"text\" is the " +
			"paper text's ccp_alpha grid, which the authors' code never ran.",
		DisplayName: "CART",
		Order:       30,
		PaperColumn: "CART",
		Timed:       true,
		Params:      params("gini"),
		Grids: map[string]learn.Grid{
			"default": {{}},
			"text":    {{"ccp_alpha": "0"}, {"ccp_alpha": "0.001"}, {"ccp_alpha": "0.003"}},
		},
		New: learn.Constructor(settings, New),
	}
	EntropySpec = &learn.Spec{
		Name:    "c45-entropy",
		Version: 1,
		Doc: "The paper's \"C4.5\" as its code runs it: the same scikit-learn tree with " +
			"criterion='entropy' (binary splits on information gain, no gain ratio, no pessimistic " +
			"pruning). Grid \"text\" is the paper text's max_depth grid, which the code never ran.",
		DisplayName: "C4.5 (entropy, paper)",
		Order:       40,
		PaperColumn: "C4.5",
		Timed:       true,
		Params:      params("entropy"),
		Grids: map[string]learn.Grid{
			"default": {{}},
			"text":    {{"max_depth": "5"}, {"max_depth": "10"}},
		},
		New: learn.Constructor(settings, New),
	}
)

// params declares scikit-learn DecisionTreeClassifier's parameters with
// the paper code's settings as defaults; only the criterion default differs
// between "cart" and "c45-entropy", so the bounds are one declaration.
func params(criterion string) []learn.Param {
	ps := []learn.Param{
		{Name: "criterion", Kind: learn.Enum, Default: criterion, Values: []string{"gini", "entropy"},
			Doc: "impurity measure"},
		{Name: "random_state", Kind: learn.Int, Default: "42", Min: 0, Max: 4294967295, HasMin: true, HasMax: true,
			Doc: "sklearn random_state: fixes the feature visiting order (the paper fixes 42; the unit seed is not used)"},
		{Name: "min_samples_split", Kind: learn.Int, Default: "5", Min: 2, HasMin: true,
			Doc: "minimum samples to split a node"},
		{Name: "min_samples_leaf", Kind: learn.Int, Default: "2", Min: 1, HasMin: true,
			Doc: "minimum samples in each child"},
		{Name: "max_depth", Kind: learn.Int, Default: "0", Min: 0, HasMin: true,
			Doc: "maximum depth (root = 0); 0 = unlimited"},
		{Name: "max_features", Kind: learn.Int, Default: "0", Min: 0, HasMin: true,
			Doc: "features drawn per node; 0 = all"},
		{Name: "min_impurity_decrease", Kind: learn.Float, Default: "0", Min: 0, HasMin: true,
			Doc: "minimum weighted impurity decrease of a split"},
		{Name: "ccp_alpha", Kind: learn.Float, Default: "0", Min: 0, HasMin: true,
			Doc: "minimal cost-complexity pruning parameter; 0 = no pruning"},
	}
	return ps
}

// settings ties Config to the parameters. Both specs declare the same
// parameters but for the criterion's default, and their values always
// name the criterion, so one declaration decodes both. The unit seed is
// ignored: the tree's randomness is fixed by random_state, as in the
// paper. Decoding refuses a random_state that its Go type (uint32) cannot
// hold.
var settings = learn.Settings[Config]{Method: "cart", Params: params("gini")}
