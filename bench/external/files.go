package external

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// File names inside a unit's directory.
const (
	TrainFile       = "train.csv"
	TestFile        = "test.csv"
	SchemaFile      = "schema.json"
	PartitionsFile  = "partitions.json"
	ParamsFile      = "params.json"
	PredictionsFile = "predictions.txt"
	ResultFile      = "result.json"
	// ScoresFile is optional, beside predictions.txt: one column per
	// class, a score per test row (see readScores).
	ScoresFile = "scores.csv"
)

// inputs is what one run of an adapter reads. Its files are a function of
// the unit alone (rows, schema, partitions, seed, parameters): the same
// unit gives the same bytes.
type inputs struct {
	schema     learn.Schema
	xtr        [][]float64
	ytr        []int
	xte        [][]float64
	partitions []fuzzy.Partition
	seed       int64
	params     map[string]string
}

func formatValue(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// matrixCSV writes a header and the rows; with labels, a class column of
// class names follows the features.
func matrixCSV(s learn.Schema, X [][]float64, y []int) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	header := make([]string, 0, s.NumFeatures()+1)
	for j := range s.Features {
		header = append(header, s.FeatureName(j))
	}
	if y != nil {
		header = append(header, "class")
	}
	if err := w.Write(header); err != nil {
		return nil, err
	}
	rec := make([]string, len(header))
	for i, row := range X {
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("row %d column %s: %v cannot be written for an external method", i, s.FeatureName(j), v)
			}
			rec[j] = formatValue(v)
		}
		if y != nil {
			rec[len(rec)-1] = s.ClassName(y[i])
		}
		if err := w.Write(rec); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

type schemaFeature struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	Categories []string `json:"categories,omitempty"`
}

type schemaJSON struct {
	Features []schemaFeature `json:"features"`
	Classes  []string        `json:"classes"`
	NTrain   int             `json:"n_train"`
	NTest    int             `json:"n_test"`
}

type termJSON struct {
	Name      string    `json:"name"`
	Trapezoid []float64 `json:"trapezoid,omitempty"`
	Value     *float64  `json:"value,omitempty"`
}

type partitionJSON struct {
	Feature string     `json:"feature"`
	Type    string     `json:"type"`
	Min     float64    `json:"min"`
	Max     float64    `json:"max"`
	Terms   []termJSON `json:"terms"`
}

type paramsJSON struct {
	Seed   int64                      `json:"seed"`
	Params map[string]json.RawMessage `json:"params"`
}

// paramValue writes a parameter as a JSON number, boolean or null when its
// text is one, else as a string, so an adapter can pass it on unchanged.
func paramValue(v string) json.RawMessage {
	switch v {
	case "true", "false", "null":
		return json.RawMessage(v)
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && json.Valid([]byte(v)) {
		return json.RawMessage(v)
	}
	q, _ := json.Marshal(v)
	return q
}

func marshal(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// files renders every input file, keyed by name.
func (in *inputs) files() (map[string][]byte, error) {
	out := map[string][]byte{}
	var err error
	if out[TrainFile], err = matrixCSV(in.schema, in.xtr, in.ytr); err != nil {
		return nil, err
	}
	if out[TestFile], err = matrixCSV(in.schema, in.xte, nil); err != nil {
		return nil, err
	}
	if out[SchemaFile], err = marshal(in.schemaJSON()); err != nil {
		return nil, err
	}
	if out[PartitionsFile], err = marshal(in.partitionsJSON()); err != nil {
		return nil, err
	}
	pj := paramsJSON{Seed: in.seed, Params: map[string]json.RawMessage{}}
	for k, v := range in.params {
		pj.Params[k] = paramValue(v)
	}
	if out[ParamsFile], err = marshal(pj); err != nil {
		return nil, err
	}
	return out, nil
}

// schemaJSON describes the schema for the method: classes, features and
// the sizes of the training and test sets.
func (in *inputs) schemaJSON() schemaJSON {
	sj := schemaJSON{Classes: make([]string, in.schema.NumClasses()), NTrain: len(in.xtr), NTest: len(in.xte)}
	for k := range sj.Classes {
		sj.Classes[k] = in.schema.ClassName(k)
	}
	for j, f := range in.schema.Features {
		sf := schemaFeature{Name: in.schema.FeatureName(j), Type: "numeric"}
		if f.Nominal {
			sf.Type, sf.Categories = "nominal", append([]string{}, f.Categories...)
		}
		sj.Features = append(sj.Features, sf)
	}
	return sj
}

// partitionsJSON describes each feature's fuzzy partition: its terms'
// trapezoids, or a nominal term's value.
func (in *inputs) partitionsJSON() []partitionJSON {
	parts := make([]partitionJSON, len(in.partitions))
	for j, p := range in.partitions {
		pj := partitionJSON{Feature: in.schema.FeatureName(j), Type: "numeric", Min: p.Min, Max: p.Max}
		if p.Nominal {
			pj.Type = "nominal"
		}
		for _, t := range p.Terms {
			tj := termJSON{Name: t.Name}
			if t.Crisp {
				v := t.Category.Value
				tj.Value = &v
			} else {
				tj.Trapezoid = []float64{t.Shape.A, t.Shape.B, t.Shape.C, t.Shape.D}
			}
			pj.Terms = append(pj.Terms, tj)
		}
		parts[j] = pj
	}
	return parts
}

// write stores the input files in dir.
func (in *inputs) write(dir string) error {
	files, err := in.files()
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
