package sidebyside

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestLargeMarkdown(t *testing.T) {
	r := LargeResult{Rows: 1_000_000, Cols: 20, FileBytes: 191_000_000, Jobs: 2, Stages: "load 1.6s, prepare 2.0s, fit 90.0s, predict 1.0s, write 0.1s",
		Runs: []LargeRun{
			{What: "`fgrtbench datasets big.csv`", Wall: 1.62, PeakRSS: 254_000_000},
			{What: "`pandas.read_csv(big.csv)` (Python process)", Wall: 2.21, PeakRSS: 395_000_000, Note: "read_csv itself 1.9 s"},
			{What: "`fgrtbench reproduce ...`", Wall: 61.3},
		}}
	md := LargeMarkdown(r)
	for _, want := range []string{
		"1,000,000 rows × 20 numeric columns and 3 classes (191 MB of text, a 160 MB float64 matrix)",
		"| `fgrtbench datasets big.csv` | 1.62 s | 254 MB (1.6×) | — |",
		"| `pandas.read_csv(big.csv)` (Python process) | 2.21 s | 395 MB (2.5×) | read_csv itself 1.9 s |",
		"| `fgrtbench reproduce ...` | 61.3 s | — | — |",
		"summed over -j 2): load 1.6s, prepare 2.0s, fit 90.0s",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("LargeMarkdown lacks %q:\n%s", want, md)
		}
	}
}

// TestTimeProcessPeakRSS runs this test binary as a child that holds 64 MB
// and checks that the peak memory reported covers it.
func TestTimeProcessPeakRSS(t *testing.T) {
	if os.Getenv("FGRT_SPEED_CHILD") == "1" {
		b := make([]byte, 64<<20)
		for i := range b {
			b[i] = 1
		}
		runtime.KeepAlive(b)
		return
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("peak memory is read from rusage on Linux and macOS only")
	}
	t.Setenv("FGRT_SPEED_CHILD", "1")
	r, _, err := timeProcess(context.Background(), ".", "child", os.Args[0], "-test.run=^TestTimeProcessPeakRSS$")
	if err != nil {
		t.Fatal(err)
	}
	if r.PeakRSS < 64<<20 || r.PeakRSS > 1<<30 || r.Wall <= 0 {
		t.Errorf("child holding 64 MiB: peak %d bytes, wall %v", r.PeakRSS, r.Wall)
	}
	if runtime.GOOS != "linux" {
		return
	}
	// The measuring process's own peak is not the child's: after holding
	// 384 MiB itself, it must still report the child's 64 MiB (rusage
	// alone reported 384 MiB: the child inherits the high-water mark of
	// the memory it was started from).
	held := make([]byte, 384<<20)
	for i := range held {
		held[i] = 1
	}
	runtime.KeepAlive(held)
	held = nil
	r, _, err = timeProcess(context.Background(), ".", "child", os.Args[0], "-test.run=^TestTimeProcessPeakRSS$")
	if err != nil {
		t.Fatal(err)
	}
	if r.PeakRSS < 64<<20 || r.PeakRSS > 256<<20 {
		t.Errorf("child holding 64 MiB after the parent held 384 MiB: peak %d MiB (note %q)", r.PeakRSS>>20, r.Note)
	}
}

func TestStudyArgs(t *testing.T) {
	got := strings.Join(StudyArgs("big.csv", "out", 2), " ")
	want := "reproduce --methods fgrt,cart --no-variants --protocol clean --datasets big.csv -j 2 --profile --out out"
	if got != want {
		t.Errorf("StudyArgs = %s, want %s", got, want)
	}
}
