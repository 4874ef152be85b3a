package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// IsDataFile reports whether a dataset name is a path to a data file of
// the user's own (.dat, .arff or .csv) rather than a registry name.
func IsDataFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".dat", ".arff", ".csv":
		return true
	}
	return false
}

// CheckName accepts a registry name or the path of an existing data file,
// and otherwise returns an error listing the registry names.
func CheckName(name string) error {
	if IsDataFile(name) {
		st, err := os.Stat(name)
		if err != nil {
			return fmt.Errorf("dataset file %s: %w", name, err)
		}
		if st.IsDir() {
			return fmt.Errorf("dataset file %s is a directory", name)
		}
		return nil
	}
	if _, err := Lookup(name); err != nil {
		return fmt.Errorf("%v (or give the path of a .dat, .arff or .csv file)", err)
	}
	return nil
}
