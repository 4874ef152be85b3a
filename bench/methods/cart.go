package methods

import (
	"github.com/fgrtbench/fgrtbench/baselines/cart"
	"github.com/fgrtbench/fgrtbench/learn"
)

// cartParams declares scikit-learn DecisionTreeClassifier's parameters with
// the paper code's settings as defaults; only the criterion default differs
// between "cart" and "c45-entropy".
func cartParams(criterion string) []Param {
	return []Param{
		{Name: "criterion", Kind: Enum, Default: criterion, Values: []string{"gini", "entropy"},
			Doc: "impurity measure"},
		{Name: "random_state", Kind: Int, Default: "42", Min: 0, Max: 4294967295, HasMin: true, HasMax: true,
			Doc: "sklearn random_state: fixes the feature visiting order (the paper fixes 42; the unit seed is not used)"},
		{Name: "min_samples_split", Kind: Int, Default: "5", Min: 2, HasMin: true,
			Doc: "minimum samples to split a node"},
		{Name: "min_samples_leaf", Kind: Int, Default: "2", Min: 1, HasMin: true,
			Doc: "minimum samples in each child"},
		{Name: "max_depth", Kind: Int, Default: "0", Min: 0, HasMin: true,
			Doc: "maximum depth (root = 0); 0 = unlimited"},
		{Name: "max_features", Kind: Int, Default: "0", Min: 0, HasMin: true,
			Doc: "features drawn per node; 0 = all"},
		{Name: "min_impurity_decrease", Kind: Float, Default: "0", Min: 0, HasMin: true,
			Doc: "minimum weighted impurity decrease of a split"},
		{Name: "ccp_alpha", Kind: Float, Default: "0", Min: 0, HasMin: true,
			Doc: "minimal cost-complexity pruning parameter; 0 = no pruning"},
	}
}

// newCART builds a cart.Trainer from a validated config. The unit seed is
// ignored: the tree's randomness is fixed by random_state, as in the paper.
func newCART(cfg Config, _ int64) (learn.Trainer, error) {
	crit, err := cart.ParseCriterion(cfg.Str("criterion"))
	if err != nil {
		return nil, err
	}
	return cart.New(cart.Config{
		Criterion:           crit,
		RandomState:         uint32(cfg.Int("random_state")),
		MinSamplesSplit:     cfg.Int("min_samples_split"),
		MinSamplesLeaf:      cfg.Int("min_samples_leaf"),
		MaxDepth:            cfg.Int("max_depth"),
		MaxFeatures:         cfg.Int("max_features"),
		MinImpurityDecrease: cfg.Float("min_impurity_decrease"),
		CCPAlpha:            cfg.Float("ccp_alpha"),
	})
}

func init() {
	Register(&Method{
		Name:    "cart",
		Version: 1,
		Doc: "CART: scikit-learn 1.2.1 DecisionTreeClassifier(criterion='gini', random_state=42, " +
			"min_samples_split=5, min_samples_leaf=2), ported node for node. Grid \"text\" is the " +
			"paper text's ccp_alpha grid, which the authors' code never ran.",
		Params: cartParams("gini"),
		Grids: map[string]Grid{
			"default": {{}},
			"text":    {{"ccp_alpha": "0"}, {"ccp_alpha": "0.001"}, {"ccp_alpha": "0.003"}},
		},
		New: newCART,
	})
	Register(&Method{
		Name:    "c45-entropy",
		Version: 1,
		Doc: "The paper's \"C4.5\" as its code runs it: the same scikit-learn tree with " +
			"criterion='entropy' (binary splits on information gain, no gain ratio, no pessimistic " +
			"pruning). Grid \"text\" is the paper text's max_depth grid, which the code never ran.",
		Params: cartParams("entropy"),
		Grids: map[string]Grid{
			"default": {{}},
			"text":    {{"max_depth": "5"}, {"max_depth": "10"}},
		},
		New: newCART,
	})
}
