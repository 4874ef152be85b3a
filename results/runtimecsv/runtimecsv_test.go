package runtimecsv

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestWriteReadRoundTrip: rows are written with the header and times to the
// microsecond, read back alike from a stream and from a file.
func TestWriteReadRoundTrip(t *testing.T) {
	rows := []Row{
		{Study: StudySamples, Method: "fgrt", NSamples: 1000, NFeatures: 10, Trial: 0, FitSeconds: 0.0123456},
		{Study: RealPrefix + "wine", Method: "cart", NSamples: 178, NFeatures: 13, Trial: 2, FitSeconds: 2},
	}
	var buf bytes.Buffer
	if err := Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	const want = "study,method,n_samples,n_features,trial,fit_seconds\n" +
		"samples,fgrt,1000,10,0,0.012346\n" +
		"real/wine,cart,178,13,2,2.000000\n"
	if buf.String() != want {
		t.Fatalf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
	back, err := Read(strings.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	rows[0].FitSeconds = 0.012346 // what microsecond resolution keeps
	if !reflect.DeepEqual(back, rows) {
		t.Errorf("read back\n%+v\nwant\n%+v", back, rows)
	}
	path := filepath.Join(t.TempDir(), FileName)
	if err := WriteFile(path, rows); err != nil {
		t.Fatal(err)
	}
	if again, err := ReadFile(path); err != nil || !reflect.DeepEqual(again, rows) {
		t.Errorf("file round trip: %+v, %v", again, err)
	}
}

// TestReadRefusesBadInput: each fault is one line naming the file's line
// and column where it has them.
func TestReadRefusesBadInput(t *testing.T) {
	const header = "study,method,n_samples,n_features,trial,fit_seconds\n"
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "runtime.csv: empty file"},
		{"other header", "a,b\n", `runtime.csv: unexpected header "a,b"`},
		{"short row", header + "samples,fgrt,1,2,0\n", "runtime.csv: record on line 2: wrong number of fields"},
		{"bad integer", header + "samples,fgrt,x,2,0,1\n", "runtime.csv:2: column n_samples:"},
		{"negative time", header + "samples,fgrt,1,2,0,-1\n", `runtime.csv:2: column fit_seconds: "-1" is not a non-negative time`},
		{"NaN time", header + "samples,fgrt,1,2,0,1\nsamples,fgrt,1,2,1,NaN\n", `runtime.csv:3: column fit_seconds: "NaN"`},
	} {
		_, err := Read(strings.NewReader(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line starting %q", c.name, err, c.want)
		}
	}
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte("a,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err == nil || !strings.HasPrefix(err.Error(), path+": runtime.csv: unexpected header") {
		t.Errorf("ReadFile: error %v, want it to name the path", err)
	}
}
