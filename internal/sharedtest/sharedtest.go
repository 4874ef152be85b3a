// Package sharedtest locates the reference material (golden data, test
// vectors, the KEEL dataset mirror) that lives outside the repository, so
// tests can use it when present and skip with a clear message when not.
//
// The directory is $FGRT_SHARED when set, otherwise ../shared beside the
// module root (the layout of a developer checkout and of CI).
package sharedtest

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Root returns the shared directory, or "" when it cannot be found.
func Root() string {
	if d := os.Getenv("FGRT_SHARED"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		return ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			cand := filepath.Join(filepath.Dir(dir), "shared")
			if st, err := os.Stat(cand); err == nil && st.IsDir() {
				return cand
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Path returns Root()/rel, or "" when the shared directory or the file is absent.
func Path(rel string) string {
	r := Root()
	if r == "" {
		return ""
	}
	p := filepath.Join(r, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// Require returns the path of rel inside the shared directory, or skips the
// test when it is not there.
func Require(tb testing.TB, rel string) string {
	tb.Helper()
	p := Path(rel)
	if p == "" {
		tb.Skipf("reference file %s not found: set FGRT_SHARED or place the shared directory beside the repository", rel)
	}
	return p
}

// Mirror returns the directory of the raw KEEL .dat files, or "" when absent.
func Mirror() string { return Path("datasets/raw") }

// ReadJSON decodes the JSON file rel of the shared directory into v, or
// skips the test when the file is absent.
func ReadJSON(tb testing.TB, rel string, v any) {
	tb.Helper()
	raw, err := os.ReadFile(Require(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		tb.Fatalf("%s: %v", rel, err)
	}
}

// ReadCSV parses the CSV file rel of the shared directory (header row
// included), or skips the test when the file is absent.
func ReadCSV(tb testing.TB, rel string) [][]string {
	tb.Helper()
	f, err := os.Open(Require(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", rel, err)
	}
	return rows
}
