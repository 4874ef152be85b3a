// Package sharedtest locates the reference material (golden data, test
// vectors, the KEEL dataset mirror) that lives outside the repository, so
// tests can use it when present and skip with a message that names what is
// missing and the variable that would supply it when not.
//
// The reference directory is $FGRT_SHARED when set, otherwise ../shared
// beside the module root (the layout of a developer checkout and of CI).
// The KEEL mirror is $FGRT_DATA_MIRROR when set, as for the fgrtbench
// command, otherwise datasets/raw of the reference directory.
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
		tb.Skipf("reference file %s not found: %s", rel, where())
	}
	return p
}

// where says where the reference directory was looked for, and how to
// point the tests at it.
func where() string {
	if d := os.Getenv("FGRT_SHARED"); d != "" {
		if r := Root(); r != "" {
			return "FGRT_SHARED=" + d + " does not hold it"
		}
		return "FGRT_SHARED=" + d + " is not a directory"
	}
	if r := Root(); r != "" {
		return r + " (../shared beside the module root) does not hold it; set FGRT_SHARED to another reference directory"
	}
	return "FGRT_SHARED is unset and there is no ../shared beside the module root; set FGRT_SHARED=DIR"
}

// Mirror returns the directory of the raw KEEL .dat files: $FGRT_DATA_MIRROR
// when set (as the fgrtbench command reads it; "" when it is not a
// directory), else datasets/raw of the shared directory, or "" when absent.
func Mirror() string {
	if d := os.Getenv(MirrorVariable); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		return ""
	}
	return Path("datasets/raw")
}

// MirrorVariable names the KEEL mirror's directory for the command and
// the tests alike (datasets.EnvDataMirror, which this package cannot
// import from below it).
const MirrorVariable = "FGRT_DATA_MIRROR"

// RequireMirror returns Mirror(), or skips the test with a message that
// names the variable to set and where the mirror was looked for.
func RequireMirror(tb testing.TB) string {
	tb.Helper()
	if m := Mirror(); m != "" {
		return m
	}
	if d := os.Getenv(MirrorVariable); d != "" {
		tb.Skipf("KEEL mirror not found: %s=%s is not a directory", MirrorVariable, d)
	}
	tb.Skipf("KEEL mirror not found: %s is unset and datasets/raw of the reference directory is absent (%s); set %s=DIR, a directory of the ten <name>.dat files",
		MirrorVariable, where(), MirrorVariable)
	return ""
}

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
