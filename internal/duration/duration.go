// Package duration parses the durations a user gives (a flag's timeout, a
// spec's timeout) and says which way a refused one is wrong: not a
// duration, too long to represent, or not positive. time.ParseDuration
// reports an overflow as an invalid duration, which sends the user looking
// for a typo in "99999999999h".
package duration

import (
	"fmt"
	"math"
	"regexp"
	"time"
)

// syntax is time.ParseDuration's grammar: a signed sequence of decimal
// numbers, each with a unit. A string of this form that ParseDuration
// refuses overflowed.
var syntax = regexp.MustCompile(`^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`)

// Max is the longest duration there is (about 292 years).
const Max = time.Duration(math.MaxInt64)

// ParsePositive parses s as a positive duration ("90s", "10m", "1h30m").
// Its errors quote s and say what is wrong with it.
func ParsePositive(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil && s != "0" && syntax.MatchString(s):
		return 0, fmt.Errorf("%q is out of range: the longest duration is %v (about 292 years)", s, Max)
	case err != nil:
		return 0, fmt.Errorf("%q is not a duration such as 90s or 10m", s)
	case d <= 0:
		return 0, fmt.Errorf("%q is not positive: give a positive duration such as 90s or 10m", s)
	}
	return d, nil
}
