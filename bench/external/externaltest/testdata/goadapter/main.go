// Command goadapter is the external-method adapter the tests build: a
// nearest-centroid classifier that needs nothing but Go. Its mode argument
// injects the failures an adapter can have.
//
// Usage: goadapter [-noread|-die] DIR SEED MODE    (process mode)
//
//	FGRTBENCH_WORKER=1 goadapter [-noread|-die]   (worker mode)
//
// In worker mode it reads jobs on stdin and answers on stdout
// (bench/external/worker.go); the job's params carry the mode. -noread
// makes a worker that never reads its input, -die one that exits at once
// with an import error.
package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// failure is a job's error: process mode prints it and exits 1, worker
// mode answers it.
type failure string

func fail(format string, args ...any) {
	panic(failure(fmt.Sprintf("goadapter: "+format, args...)))
}

// jobsDone counts this process's jobs (the "pid" mode reports it: state
// that lives as long as a worker).
var jobsDone int

func main() {
	args := os.Args[1:]
	noread, die := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-noread":
			noread = true
		case "-die":
			die = true
		}
		args = args[1:]
	}
	if os.Getenv("FGRTBENCH_WORKER") != "" {
		worker(noread, die)
		return
	}
	defer func() {
		if f, ok := recover().(failure); ok {
			fmt.Fprintln(os.Stderr, f)
			os.Exit(1)
		}
	}()
	if len(args) != 3 {
		fail("usage: goadapter DIR SEED MODE")
	}
	run(args[0], args[1], args[2], 0)
}

// worker serves jobs until its input ends.
func worker(noread, die bool) {
	if die {
		fmt.Fprintln(os.Stderr, "Traceback (most recent call last):")
		fmt.Fprintln(os.Stderr, "ImportError: No module named 'sklearn'")
		os.Exit(1)
	}
	if noread {
		time.Sleep(time.Minute)
		return
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var job struct {
			ID     int64          `json:"id"`
			Dir    string         `json:"dir"`
			Seed   int64          `json:"seed"`
			Params map[string]any `json:"params"`
			Argv   []string       `json:"argv"`
		}
		if err := json.Unmarshal(in.Bytes(), &job); err != nil {
			fmt.Fprintf(os.Stderr, "goadapter: bad job %q: %v\n", in.Text(), err)
			os.Exit(2)
		}
		mode, _ := job.Params["mode"].(string)
		// argv is the command as process mode runs it: DIR SEED MODE last.
		if n := len(job.Argv); n < 3 || job.Argv[n-3] != job.Dir || job.Argv[n-2] != strconv.FormatInt(job.Seed, 10) || job.Argv[n-1] != mode {
			fmt.Fprintf(os.Stderr, "goadapter: argv %q disagrees with the job\n", job.Argv)
			os.Exit(2)
		}
		answer := map[string]any{"id": job.ID, "ok": true}
		func() {
			defer func() {
				if f, ok := recover().(failure); ok {
					answer["ok"], answer["error"] = false, string(f)
				}
			}()
			run(job.Dir, strconv.FormatInt(job.Seed, 10), mode, job.ID)
		}()
		switch mode {
		case "garbage":
			fmt.Fprintln(out, "fitting... done")
		case "wrongid":
			answer["id"] = job.ID + 1
		case "exit0":
			os.Exit(0)
		case "hugeline":
			out.WriteString(strings.Repeat("x", 1<<20))
		case "twice":
			data, _ := json.Marshal(answer)
			out.Write(append(data, '\n'))
		case "late-twice": // the second answer after the harness has sent the next job
			data, _ := json.Marshal(answer)
			out.Write(append(data, '\n'))
			out.Flush()
			time.Sleep(300 * time.Millisecond)
		}
		data, _ := json.Marshal(answer)
		out.Write(append(data, '\n'))
		out.Flush()
	}
}

func readCSV(path string) [][]string {
	f, err := os.Open(path)
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		fail("%s: %v", path, err)
	}
	return recs[1:] // header
}

func row(rec []string) []float64 {
	out := make([]float64, len(rec))
	for j, s := range rec {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			fail("cell %q: %v", s, err)
		}
		out[j] = v
	}
	return out
}

// run is one job: fit the centroids on train.csv, predict test.csv.
func run(dir, seedArg, mode string, id int64) {
	jobsDone++
	var params struct {
		Seed   int64          `json:"seed"`
		Params map[string]any `json:"params"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "params.json"))
	if err != nil {
		fail("%v", err)
	}
	if err := json.Unmarshal(data, &params); err != nil {
		fail("params.json: %v", err)
	}
	if strconv.FormatInt(params.Seed, 10) != seedArg || params.Params["mode"] != mode {
		fail("placeholders {seed}=%s {mode}=%s disagree with params.json %+v", seedArg, mode, params)
	}
	var schema struct {
		Features []struct{ Name, Type string } `json:"features"`
		Classes  []string                      `json:"classes"`
	}
	data, err = os.ReadFile(filepath.Join(dir, "schema.json"))
	if err != nil {
		fail("%v", err)
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		fail("schema.json: %v", err)
	}
	var parts []map[string]any
	data, err = os.ReadFile(filepath.Join(dir, "partitions.json"))
	if err != nil {
		fail("%v", err)
	}
	if err := json.Unmarshal(data, &parts); err != nil || len(parts) != len(schema.Features) {
		fail("partitions.json: %v, %d partitions for %d features", err, len(parts), len(schema.Features))
	}

	switch mode {
	case "junk":
		// Each job's directory holds its inputs only: fail on anything
		// else, then leave a file behind for the next job to find.
		entries, _ := os.ReadDir(dir)
		if len(entries) != 5 {
			fail("the job's directory holds %d files, want the 5 inputs", len(entries))
		}
		os.WriteFile(filepath.Join(dir, "junk.txt"), []byte("left behind"), 0o644)
	case "exit":
		fmt.Fprintln(os.Stderr, "Traceback (most recent call last):")
		fmt.Fprintln(os.Stderr, "ValueError: the model exploded")
		os.Exit(3)
	case "sleep":
		time.Sleep(time.Minute)
	case "fail-if-flag":
		// Fails for every third seed while the flag file exists.
		if _, err := os.Stat(params.Params["flag"].(string)); err == nil && params.Seed%3 == 0 {
			fail("flag set")
		}
	}

	start := time.Now()
	d := len(schema.Features)
	sums := map[string][]float64{}
	count := map[string]int{}
	for _, rec := range readCSV(filepath.Join(dir, "train.csv")) {
		x, c := row(rec[:d]), rec[d]
		if sums[c] == nil {
			sums[c] = make([]float64, d)
		}
		for j, v := range x {
			sums[c][j] += v
		}
		count[c]++
	}
	var present []string
	for _, c := range schema.Classes { // schema order: deterministic ties
		if count[c] > 0 {
			present = append(present, c)
			for j := range sums[c] {
				sums[c][j] /= float64(count[c])
			}
		}
	}
	fit := time.Since(start).Seconds()

	var out strings.Builder
	for i, rec := range readCSV(filepath.Join(dir, "test.csv")) {
		x := row(rec)
		best, bestD := "", math.Inf(1)
		for _, c := range present {
			dist := 0.0
			for j, v := range x {
				dist += (v - sums[c][j]) * (v - sums[c][j])
			}
			if dist < bestD {
				best, bestD = c, dist
			}
		}
		if mode == "unknown" && i == 0 {
			best = "purple"
		}
		out.WriteString(best + "\n")
	}
	preds := out.String()
	if mode == "short" {
		preds = preds[:strings.LastIndex(strings.TrimSuffix(preds, "\n"), "\n")+1]
	}
	if mode == "hugepred" {
		preds = strings.Repeat(preds, 1<<20/len(preds)+1)
	}
	predPath := filepath.Join(dir, "predictions.txt")
	if mode == "fifo" {
		// A named pipe nobody writes: reading it would block forever.
		if err := mkfifo(predPath); err != nil {
			fail("mkfifo: %v", err)
		}
	} else if err := os.WriteFile(predPath, []byte(preds), 0o644); err != nil {
		fail("%v", err)
	}
	var rules strings.Builder
	for _, c := range present {
		fmt.Fprintf(&rules, "IF TRUE THEN class %s  (nearest of %d centroids)\n", c, len(present))
	}
	if mode == "pid" { // which process ran the job, and its how-manieth
		fmt.Fprintf(&rules, "# pid %d job %d\n", os.Getpid(), jobsDone)
	}
	res := map[string]any{
		"fit_seconds": fit,
		"complexity":  map[string]int{"rules": len(present), "antecedents": 0, "leaves": len(present), "internal_nodes": 0},
		"rules":       rules.String(),
	}
	if mode == "badjson" {
		res["complexity"] = map[string]string{"rules": "many"}
	}
	data, _ = json.Marshal(res)
	if err := os.WriteFile(filepath.Join(dir, "result.json"), data, 0o644); err != nil {
		fail("%v", err)
	}
}
