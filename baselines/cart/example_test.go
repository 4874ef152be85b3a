package cart_test

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/baselines/cart"
	"github.com/fgrtbench/fgrtbench/learn"
)

func Example() {
	X := [][]float64{{1.4, 0.2}, {1.3, 0.2}, {1.5, 0.1}, {4.7, 1.4}, {4.5, 1.5}, {4.9, 1.5}, {6.0, 2.5}, {5.1, 1.9}, {5.9, 2.1}}
	y := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	s := learn.Schema{
		Features: []learn.Feature{{Name: "petal_length"}, {Name: "petal_width"}},
		Classes:  []string{"setosa", "versicolor", "virginica"},
	}
	trainer, err := cart.New(cart.Config{Criterion: cart.Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, RandomState: 42})
	if err != nil {
		panic(err)
	}
	model, err := trainer.Fit(X, y, s)
	if err != nil {
		panic(err)
	}
	fmt.Print(model.Rules(s))
	fmt.Printf("%+v\n", model.Complexity())
	fmt.Println(model.Predict([][]float64{{1.0, 0.3}, {5.5, 2.0}}))
	// Output:
	// IF petal_length <= 3 THEN class setosa
	// IF petal_length > 3 AND petal_width <= 1.7 THEN class versicolor
	// IF petal_length > 3 AND petal_width > 1.7 THEN class virginica
	// {Rules:3 Antecedents:5 Leaves:3 InternalNodes:2}
	// [0 2]
}
