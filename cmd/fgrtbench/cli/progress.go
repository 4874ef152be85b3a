package cli

import (
	"time"

	"github.com/fgrtbench/fgrtbench/tasks/runstudy"
)

// The runtime study's progress lines keep the pace and the duration format
// of a run's (tasks/runstudy).
const lineEvery = runstudy.LineEvery

func shortDuration(d time.Duration) string { return runstudy.ShortDuration(d) }
