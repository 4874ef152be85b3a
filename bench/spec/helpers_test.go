package spec

import "github.com/fgrtbench/fgrtbench/bench/study"

// Helpers that only the tests use: no part of the package's API.

// Parse is parse with paths relative to the current directory.
func Parse(data []byte, format string) (study.Study, error) {
	return parse(data, format, "")
}
