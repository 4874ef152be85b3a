package methods

// displayNames are the names the views show for a method label's base (the
// label without "@variant"): the registry's methods and the fixed FGRT
// variant the reproduction adds. The runner records them in the manifest,
// from which reports, figures and the gate read them.
var displayNames = map[string]string{
	"fgrt":        "FGRT",
	"fgrt-opt":    "FGRT*",
	"cart":        "CART",
	"c45-entropy": "C4.5 (entropy, paper)",
	"c45":         "C4.5 (J48)",
	"ripper":      "RIPPER",
	"fga":         "FGA",
	// The FGRT variant the reproduction adds, with quirks Q1 and Q2 fixed.
	"fgrt-fixed": "FGRT (Q1+Q2 fixed)",
}

// DisplayName returns the name shown for a method label's base; an
// unknown base is shown as it is.
func DisplayName(base string) string {
	if n, ok := displayNames[base]; ok {
		return n
	}
	return base
}
