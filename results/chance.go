package results

// MajorityMethod is the method name of the majority-class baseline
// (package baselines/majority), the reference of AtChance. It is spelled
// here so that the views find the baseline's rows in results.csv without
// importing a learner.
const MajorityMethod = "majority"

// AtChance reports whether a cell is at chance: its balanced accuracy does
// not exceed the majority-class baseline's on the same dataset and
// protocol. Predicting the training fold's most frequent class scores a
// balanced accuracy of 1/C on every fold (one class fully right, the others
// fully wrong), so a method that does no better has learned nothing its
// class balance did not already say, whatever its plain accuracy (the
// paper's FGRT on pima and saheart: 65.10% and 65.37%, exactly the
// majority rate). Both values must be on the same scale (fractions or
// percentages).
func AtChance(balancedAccuracy, majorityBalancedAccuracy float64) bool {
	return balancedAccuracy <= majorityBalancedAccuracy
}
