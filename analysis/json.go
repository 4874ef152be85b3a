package analysis

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"unicode"
)

// JSON returns the analysis as indented JSON (report/analysis.json). Field
// names are the json tags, or else the Go field names in snake_case
// (AccuracyStd → accuracy_std); NaN and infinite numbers, which JSON
// cannot hold, are written as null ("not applicable"). The output is
// byte-deterministic.
func (a *Analysis) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(plain(reflect.ValueOf(a))); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// plain turns v into maps, slices and scalars that encoding/json writes
// with the field names above and nulls for non-finite numbers.
func plain(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plain(v.Elem())
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return f
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return []any{}
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = plain(v.Index(i))
		}
		return out
	case reflect.Map:
		out := map[string]any{}
		it := v.MapRange()
		for it.Next() {
			out[it.Key().String()] = plain(it.Value())
		}
		return out
	case reflect.Struct:
		return plainStruct(v)
	default:
		return v.Interface()
	}
}

// plainStruct turns a struct into a map of its exported fields by their
// JSON names, leaving out those tagged "-" and empty omitempty ones.
func plainStruct(v reflect.Value) map[string]any {
	out := map[string]any{}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = snake(f.Name)
		}
		fv := v.Field(i)
		if strings.Contains(opts, "omitempty") && fv.IsZero() {
			continue
		}
		out[name] = plain(fv)
	}
	return out
}

// snake turns a Go field name into snake_case: "PImanDavenport" →
// "p_iman_davenport", "CD05" → "cd05", "NTest" → "n_test".
func snake(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) {
			prevLower := i > 0 && (unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1]))
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1])
			if i > 0 && (prevLower || (nextLower && unicode.IsUpper(r[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(c))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
