package spec

import (
	"context"

	"github.com/fgrtbench/fgrtbench/bench/study"
)

// Helpers that only the tests use: no part of the package's API.

// Parse is parse with paths relative to the current directory.
func Parse(data []byte, format string) (study.Study, error) {
	return parse(context.Background(), data, format, "")
}
