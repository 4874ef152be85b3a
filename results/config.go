package results

import "github.com/fgrtbench/fgrtbench/learn"

// Config is a complete assignment of parameter values, keyed by name: the
// configuration a results.csv row's config column records. It is the
// learner contract's learn.Values, so that the column's text form is
// defined once (learn.Values.String and learn.ParseValues); the registry
// (bench/methods) validates and fills it, readers of results only parse it.
type Config = learn.Values

// ParseConfig parses the canonical form produced by Config.String.
func ParseConfig(s string) (Config, error) { return learn.ParseValues(s) }
