// Command goadapter is the external-method adapter the tests build: a
// nearest-centroid classifier that needs nothing but Go. Its mode argument
// injects the failures an adapter can have.
//
// Usage: goadapter DIR SEED MODE
package main

import (
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

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "goadapter: "+format+"\n", args...)
	os.Exit(1)
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

func main() {
	if len(os.Args) != 4 {
		fail("usage: goadapter DIR SEED MODE")
	}
	dir, seedArg, mode := os.Args[1], os.Args[2], os.Args[3]
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
	if err := os.WriteFile(filepath.Join(dir, "predictions.txt"), []byte(preds), 0o644); err != nil {
		fail("%v", err)
	}
	var rules strings.Builder
	for _, c := range present {
		fmt.Fprintf(&rules, "IF TRUE THEN class %s  (nearest of %d centroids)\n", c, len(present))
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
