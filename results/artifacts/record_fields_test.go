package artifacts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// The model record is written by hand (appendModelParts), read by hand
// (fastModel) and converted to and from learn.Description by hand
// (NewModelRecord, ModelRecord.Description). These tests fill every field
// of the types by reflection, so that a field added to ModelRecord, Term,
// learn.Description or learn.PartitionTerm and forgotten by one of them
// fails here instead of being dropped silently.

// filled returns a value of type t with every field, element and pointer
// set to a value other than its zero, distinct per leaf (next counts).
func filled(t reflect.Type, next *int) reflect.Value {
	*next++
	v := reflect.New(t).Elem()
	switch {
	case t == reflect.TypeOf(json.RawMessage(nil)):
		v.SetBytes([]byte(fmt.Sprintf(`{"n":[%d,"s"]}`, *next)))
	case t.Kind() == reflect.String:
		v.SetString(fmt.Sprintf("s%d", *next))
	case t.Kind() == reflect.Int:
		v.SetInt(int64(*next))
	case t.Kind() == reflect.Float64:
		v.SetFloat(float64(*next) + 0.25)
	case t.Kind() == reflect.Pointer:
		v.Set(filled(t.Elem(), next).Addr())
	case t.Kind() == reflect.Slice:
		v.Set(reflect.MakeSlice(t, 2, 2))
		for i := range 2 {
			v.Index(i).Set(filled(t.Elem(), next))
		}
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			v.Field(i).Set(filled(t.Field(i).Type, next))
		}
	default:
		panic("filled: no value for " + t.String())
	}
	return v
}

func fullRecord() ModelRecord {
	n := 0
	return filled(reflect.TypeOf(ModelRecord{}), &n).Interface().(ModelRecord)
}

// TestModelRecordEveryFieldWrittenAndRead: the hand-written encoder
// writes every field as encoding/json does, and fastModel reads each back
// (it declines a key it does not know).
func TestModelRecordEveryFieldWrittenAndRead(t *testing.T) {
	rec := fullRecord()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		t.Fatal(err)
	}
	line, err := appendModelJSON(nil, rec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(line, want.Bytes()) {
		t.Fatalf("appendModelJSON wrote\n%s\nencoding/json\n%s", line, want.Bytes())
	}
	got, ok := fastModel(&jsonScan{intern: map[string]string{}, keepModel: true}, bytes.TrimSuffix(line, []byte("\n")))
	if !ok {
		t.Fatalf("fastModel declines a line with every field of ModelRecord:\n%s", line)
	}
	if !reflect.DeepEqual(got, rec) {
		t.Fatalf("fastModel read\n%+v\nwant\n%+v", got, rec)
	}
}

// TestModelRecordKeepsTheDescription: a record made from a description
// gives it back whole, and the two types spell their shared fields alike.
func TestModelRecordKeepsTheDescription(t *testing.T) {
	n := 0
	d := filled(reflect.TypeOf(learn.Description{}), &n).Interface().(learn.Description)
	if got := NewModelRecord("u", 1, d, nil).Description(); !reflect.DeepEqual(got, d) {
		t.Fatalf("the record's description\n%+v\nwant\n%+v", got, d)
	}
	for _, c := range []struct{ description, record reflect.Type }{
		{reflect.TypeOf(learn.Description{}), reflect.TypeOf(ModelRecord{})},
		{reflect.TypeOf(learn.PartitionTerm{}), reflect.TypeOf(Term{})},
	} {
		rec := jsonNames(c.record)
		for name, f := range jsonNames(c.description) {
			r, ok := rec[name]
			switch {
			case !ok:
				t.Errorf("%s has no field %q of %s", c.record, name, c.description)
			case r.Name != f.Name:
				t.Errorf("%q is %s.%s but %s.%s", name, c.record, r.Name, c.description, f.Name)
			case r.Type != f.Type && name != "partitions":
				t.Errorf("%q is a %s in %s but a %s in %s", name, r.Type, c.record, f.Type, c.description)
			}
		}
	}
}

// jsonNames maps the JSON names of t's fields to the fields, those of an
// embedded struct included (as encoding/json promotes them).
func jsonNames(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			for name, g := range jsonNames(f.Type) {
				out[name] = g
			}
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		out[name] = f
	}
	return out
}

// TestFieldTablesAreTheStructTags: modelFields and termFields, which the
// hand encoder and decoder follow, list the types' JSON members in
// encoding/json's order, leave out exactly the omitempty ones, and write
// every member but the model record's model (written apart, last).
func TestFieldTablesAreTheStructTags(t *testing.T) {
	type member struct {
		key       string
		omitEmpty bool
		written   bool
	}
	fromTable := func(keys []string, empty, written []bool) []member {
		var out []member
		for i, k := range keys {
			out = append(out, member{k, empty[i], written[i]})
		}
		return out
	}
	var mk, tk []string
	var me, te, mw, tw []bool
	for _, f := range modelFields {
		mk, me, mw = append(mk, f.key), append(me, f.empty != nil), append(mw, f.write != nil)
	}
	for _, f := range termFields {
		tk, te, tw = append(tk, f.key), append(te, f.empty != nil), append(tw, f.write != nil)
	}
	for _, c := range []struct {
		typ   reflect.Type
		table []member
	}{
		{reflect.TypeOf(ModelRecord{}), fromTable(mk, me, mw)},
		{reflect.TypeOf(Term{}), fromTable(tk, te, tw)},
	} {
		var want []member
		for _, f := range jsonMembers(c.typ) {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			want = append(want, member{name, opts == "omitempty", name != "model"})
		}
		if !reflect.DeepEqual(c.table, want) {
			t.Errorf("the field table of %s is\n%v\nits struct tags say\n%v", c.typ, c.table, want)
		}
	}
}

// jsonMembers returns t's fields in encoding/json's order, those of an
// embedded struct in its place.
func jsonMembers(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Tag.Get("json") == "" {
			out = append(out, jsonMembers(f.Type)...)
			continue
		}
		out = append(out, f)
	}
	return out
}
