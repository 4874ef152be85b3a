package analysis

// Helpers that only the tests use: no part of the package's API.

// Antecedents splits a rule text "IF a AND b THEN c" into its conditions
// (none for "IF TRUE THEN c" or a text of another form).
func Antecedents(rule string) []string {
	var out []string
	eachAntecedent(rule, func(c string) { out = append(out, c) })
	return out
}
