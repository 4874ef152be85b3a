package html

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	stdhtml "html"
)

// chromium returns the headless browser to check the page with: the
// FGRT_CHROMIUM variable, else Debian's chromium (or another Chromium
// build) on PATH; "" when there is none.
func chromium() string {
	if p := os.Getenv("FGRT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runChromium runs the browser headless on one URL with a fresh profile,
// no network service worth the name (no QUIC, sync, component updates or
// background requests: the page must need none) and the given extra
// flags, and returns its standard output.
func runChromium(t *testing.T, bin, url string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(extra, " "), err, tail(stderr.String(), 2000))
	}
	return out
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

var selftestResult = regexp.MustCompile(`(?s)<pre id="selftest-result"[^>]*data-status="(pass|fail)"[^>]*>(.*?)</pre>`)

// TestInBrowser opens the fixture study's page in headless Chromium. With
// #selftest the page's script sorts the results table both ways, applies
// the dataset and method selectors and a text filter, checks what is then
// shown, and writes its verdict (and any script error, which
// window.onerror records) into the DOM, which --dump-dom prints. A second
// run saves a screenshot, checked to be a 1400×1000 PNG; its path is
// logged (FGRT_SCREENSHOT_DIR keeps it somewhere of your choosing).
func TestInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser check of report/index.html did not run")
	}
	bin := chromium()
	if bin == "" {
		t.Skip("no chromium found (Debian: apt-get install chromium, or set FGRT_CHROMIUM): the browser check of report/index.html did not run")
	}
	page, err := Render(fixtureInput(t))
	if err != nil {
		t.Fatal(err)
	}
	url := writePage(t, page)

	dom := runChromium(t, bin, url+"#selftest", "--dump-dom")
	m := selftestResult.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the page wrote no self-test verdict (did its script run?); DOM tail:\n%s", tail(string(dom), 1500))
	}
	report := stdhtml.UnescapeString(string(m[2]))
	t.Logf("self-test:\n%s", report)
	if string(m[1]) != "pass" {
		t.Fatalf("self-test failed in %s:\n%s", filepath.Base(bin), report)
	}
	// The verdict must cover sorting and both selectors: a self-test that
	// silently checked nothing would pass too.
	for _, want := range []string{"ok the rules sections show rules in 4 of 4 rule sets (3 open)", "ok the method selector hides the rules of fgrt",
		"ok sorting by Accuracy ascending (12 rows)", "ok sorting by Accuracy descending", "ok the dataset selector shows only", "ok the method selector hides", "ok the text filter keeps only", "ok hovering a front point shows \"CART · max_depth="} {
		if !strings.Contains(report, want) {
			t.Errorf("self-test report lacks %q", want)
		}
	}

	shotDir := os.Getenv("FGRT_SCREENSHOT_DIR")
	if shotDir == "" {
		shotDir = t.TempDir()
	}
	if err := os.MkdirAll(shotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	shot, err := filepath.Abs(filepath.Join(shotDir, "report-index.png"))
	if err != nil {
		t.Fatal(err)
	}
	checkScreenshot(t, bin, url, shot)
	// The dataset sections' rules: headless Chromium paints nothing of a
	// page scrolled to an anchor, so the page is shot with every other
	// part hidden by a style sheet added for the shot (the rules keep the
	// page's own styles).
	if !bytes.Contains(page, []byte(`<div class="rulesets"`)) {
		t.Fatal("the page has no rules section")
	}
	rulesOnly := bytes.Replace(page, []byte("</head>"), []byte(`<style>header, main > section:not(#datasets), #datasets > h2, #datasets > table, `+
		`section.dataset > .dsbody, section.dataset > p.note { display: none !important; }</style></head>`), 1)
	rulesShot := filepath.Join(filepath.Dir(shot), "report-rules.png")
	checkScreenshot(t, bin, writePage(t, rulesOnly), rulesShot)
}

// checkScreenshot saves a 1400×1000 screenshot of url at shot and checks
// that it is one, and not blank.
func checkScreenshot(t *testing.T, bin, url, shot string) {
	t.Helper()
	runChromium(t, bin, url, "--screenshot="+shot, "--window-size=1400,1000", "--hide-scrollbars")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 1400 || img.Bounds().Dy() != 1000 {
		t.Fatalf("screenshot %s: %v, %v; want a 1400x1000 PNG", shot, img.Bounds(), err)
	}
	// Dark pixels (text) on a good part of the rows: not a blank page.
	inked := 0
	for y := 0; y < 1000; y += 10 {
		for x := 0; x < 1400; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r+g+b < 3*0x6000 {
				inked++
				break
			}
		}
	}
	if inked < 20 {
		t.Fatalf("screenshot %s looks blank (%d of 100 sampled rows hold dark pixels)", shot, inked)
	}
	t.Logf("screenshot: %s", shot)
}

func writePage(t *testing.T, page []byte) string {
	t.Helper()
	index := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(index, page, 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(index)
}

// TestInBrowserCatchesScriptErrors proves the harness above can fail: a
// page whose script throws after setting up reports the error as the
// self-test's verdict.
func TestInBrowserCatchesScriptErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser check did not run")
	}
	bin := chromium()
	if bin == "" {
		t.Skip("no chromium found (Debian: apt-get install chromium, or set FGRT_CHROMIUM): the browser check did not run")
	}
	saved := scriptJS
	scriptJS += "\nnoSuchFunction();\n"
	defer func() { scriptJS = saved }()
	page, err := Render(fixtureInput(t))
	if err != nil {
		t.Fatal(err)
	}
	m := selftestResult.FindSubmatch(runChromium(t, bin, writePage(t, page)+"#selftest", "--dump-dom"))
	if m == nil || string(m[1]) != "fail" || !strings.Contains(string(m[2]), "noSuchFunction") {
		t.Fatalf("a script error was not reported: %q", m)
	}
}
