package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "mine.csv")
	os.WriteFile(csvPath, []byte("a,b,class\n1,2,x\n"), 0o644)
	cases := []struct {
		name, want string
	}{
		{"wine", ""},
		{csvPath, ""},
		{filepath.Join(dir, "absent.arff"), "no such file"},
		{"winee", "or give the path"},
	}
	for _, c := range cases {
		err := CheckName(c.name)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckName(%q) = %v, want %q", c.name, err, c.want)
		}
	}
	if !IsDataFile("x/Y.ARFF") || IsDataFile("wine") {
		t.Error("IsDataFile")
	}
}
