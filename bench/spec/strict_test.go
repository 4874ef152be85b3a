package spec

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// specPair spells one logical spec in YAML and in JSON: the common part
// plus extra (YAML lines, JSON members) and, for JSON, text after the
// object.
func specPair(yamlExtra, jsonExtra, jsonAfter, yamlAfter string) (y, j string) {
	y = "protocols: [clean]\ndatasets: [appendicitis]\nmethods:\n  - name: cart\n" + yamlExtra + yamlAfter
	j = `{"protocols": ["clean"], "datasets": ["appendicitis"], "methods": [{"name": "cart"}]`
	if jsonExtra != "" {
		j += ", " + jsonExtra
	}
	j += "}" + jsonAfter
	return y, j
}

// TestReadersRefuseTheSameSpecs is class 6 of the shared-storage issue: one
// table of malformed specs, each in both formats; both readers refuse
// every one (want, when set, is in both messages), and the well-formed
// ones mean the same study in both.
func TestReadersRefuseTheSameSpecs(t *testing.T) {
	cases := []struct {
		name                 string
		yamlExtra, jsonExtra string
		jsonAfter, yamlAfter string
		want                 string
	}{
		{"duplicate key", "folds: 3\nfolds: 4\n", `"folds": 3, "folds": 4`, "", "", "key folds is given twice"},
		{"duplicate nested key", "    label: a\n    label: b\n", "", "", "", "key methods.label is given twice"},
		{"key in capitals", "FOLDS: 3\n", `"FOLDS": 3`, "", "", "key FOLDS must be written folds"},
		{"key in mixed case", "Seed: 3\n", `"Seed": 3`, "", "", "key Seed must be written seed"},
		{"nested key in capitals", "    Label: x\n", "", "", "", "key methods.Label must be written methods.label"},
		{"octal by leading zero", "seed: 042\n", `"seed": 042`, "", "", ""},
		{"leading zero folds", "folds: 010\n", `"folds": 010`, "", "", ""},
		{"hex", "seed: 0x2A\n", `"seed": 0x2A`, "", "", ""},
		{"0o octal", "folds: 0o10\n", `"folds": 0o10`, "", "", ""},
		{"underscore", "seed: 1_000\n", `"seed": 1_000`, "", "", ""},
		{"plus sign", "seed: +5\n", `"seed": +5`, "", "", ""},
		{"float for an integer", "folds: 5.0\n", `"folds": 5.0`, "", "", ""},
		{"exponent for an integer", "folds: 1e1\n", `"folds": 1e1`, "", "", ""},
		{"second document or object", "", "", ` {"folds": 9}`, "---\nfolds: 9\n", ""},
		{"trailing garbage", "", "", " x", "--- x\n", ""},
		{"unknown key", "foldz: 3\n", `"foldz": 3`, "", "", "foldz"},
	}
	for _, c := range cases {
		y, j := specPair(c.yamlExtra, c.jsonExtra, c.jsonAfter, c.yamlAfter)
		if c.name == "duplicate nested key" {
			j = strings.Replace(j, `{"name": "cart"}`, `{"name": "cart", "label": "a", "label": "b"}`, 1)
		}
		if c.name == "nested key in capitals" {
			j = strings.Replace(j, `{"name": "cart"}`, `{"name": "cart", "Label": "x"}`, 1)
		}
		for _, in := range []struct{ format, text string }{{"yaml", y}, {"json", j}} {
			_, err := Parse([]byte(in.text), in.format)
			switch {
			case err == nil:
				t.Errorf("%s (%s): accepted:\n%s", c.name, in.format, in.text)
			case strings.Contains(err.Error(), "\n"):
				t.Errorf("%s (%s): more than one line: %q", c.name, in.format, err)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Errorf("%s (%s): %q, want it to say %q", c.name, in.format, err, c.want)
			}
		}
	}
	// Where the message names a place, it is the line and column.
	_, err := Parse([]byte("protocols: [clean]\nseed: 042\nmethods: [{name: cart}]\n"), "yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "spec: line 2, column 7: seed 042 is not a plain decimal integer") {
		t.Errorf("octal seed: %v", err)
	}
	// Well-formed spellings mean one study in both formats.
	for _, ok := range []struct{ y, j string }{
		{"seed: 42\n", `"seed": 42`},
		{"seed: 0\nfolds: 10\n", `"seed": 0, "folds": 10`},
		{"repeats: 2\ninner_folds: 3\n", `"repeats": 2, "inner_folds": 3`},
	} {
		y, j := specPair(ok.y, ok.j, "", "")
		sy, err1 := Parse([]byte(y), "yaml")
		sj, err2 := Parse([]byte(j), "json")
		if err1 != nil || err2 != nil || !reflect.DeepEqual(sy, sj) {
			t.Errorf("%q: yaml %v / json %v; equal %v", ok.y, err1, err2, reflect.DeepEqual(sy, sj))
		}
	}
}

// FuzzSpecReaders: neither reader panics on any input.
func FuzzSpecReaders(f *testing.F) {
	y, j := specPair("seed: 42\n", `"seed": 42`, "", "")
	for _, s := range []string{y, j, yamlSpec, jsonSpec, "a: &x [*x]", "{}", "[", "---\n---\n", "seed: 0x\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		Parse(data, "yaml")
		Parse(data, "json")
	})
}

// FuzzSpecReadersAgree spells one option (a key in any case, a value in
// any number-like spelling, possibly twice, possibly followed by a second
// document) in both formats: both readers accept it as the same study or
// both refuse it.
func FuzzSpecReadersAgree(f *testing.F) {
	f.Add("seed", "042", false, false)
	f.Add("folds", "10", false, false)
	f.Add("FOLDS", "3", false, false)
	f.Add("seed", "-0", true, false)
	f.Add("repeats", "2", false, true)
	f.Add("inner_folds", "1e1", false, false)
	keyRe := regexp.MustCompile(`^[A-Za-z_]{1,12}$`)
	valRe := regexp.MustCompile(`^[0-9][0-9a-fA-FxXoO_.eE]{0,11}$|^-[0-9][0-9a-fA-FxXoO_.eE]{0,10}$`)
	f.Fuzz(func(t *testing.T, key, val string, twice, second bool) {
		if !keyRe.MatchString(key) || !valRe.MatchString(val) {
			t.Skip()
		}
		ye, je := key+": "+val+"\n", `"`+key+`": `+val
		if twice {
			ye += ye
			je += ", " + je
		}
		ja, ya := "", ""
		if second {
			ja, ya = ` {"seed": 1}`, "---\nseed: 1\n"
		}
		y, j := specPair(ye, je, ja, ya)
		sy, errY := Parse([]byte(y), "yaml")
		sj, errJ := Parse([]byte(j), "json")
		if (errY == nil) != (errJ == nil) {
			t.Fatalf("the readers disagree on %s: %s\nyaml: %v\njson: %v", key, val, errY, errJ)
		}
		if errY == nil && !reflect.DeepEqual(sy, sj) {
			t.Fatalf("%s: %s means %+v in YAML and %+v in JSON", key, val, sy.Options, sj.Options)
		}
	})
}

// TestValuesAsWritten is item 6 of issue 40: a YAML tag is honoured (a
// float or string tag on an integer field is refused like 5.0, where
// yaml.v3 alone decoded "!!float 3" as 3), and an integer that does not
// fit its field is refused quoting it as written (a decoder clamped
// -9223372036854775809 to the smallest int64 and the refusal quoted that).
func TestValuesAsWritten(t *testing.T) {
	for _, c := range []struct {
		format, extra, want string
	}{
		{"yaml", "folds: !!float 3\n", "spec: line 5, column 8: folds !!float 3 is tagged !!float, and folds takes a whole number"},
		{"yaml", "seed: !!str 42\n", "spec: line 5, column 7: seed !!str 42 is tagged !!str, and seed takes a whole number"},
		{"yaml", "folds: !custom 3\n", "spec: line 5, column 8: folds !custom 3 is tagged !custom"},
		{"yaml", "missing: !!int 3\n", "spec: line 5, column 10: missing !!int 3 is tagged !!int, and missing takes text"},
		{"yaml", "folds: -9223372036854775809\n", "spec: line 5, column 8: folds -9223372036854775809 is out of range (a whole number from -9223372036854775808 to 9223372036854775807)"},
		{"yaml", "seed: 9223372036854775808\n", "spec: line 5, column 7: seed 9223372036854775808 is out of range"},
		{"yaml", "repeats: 123456789012345678901234567890\n", "repeats 123456789012345678901234567890 is out of range"},
		{"json", `"folds": -9223372036854775809`, "folds -9223372036854775809 is out of range (a whole number from -9223372036854775808 to 9223372036854775807)"},
		{"json", `"seed": 9223372036854775808`, "seed 9223372036854775808 is out of range"},
	} {
		y, j := specPair(c.extra, c.extra, "", "")
		text := y
		if c.format == "json" {
			text = j
		}
		_, err := Parse([]byte(text), c.format)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) && !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %q: %v; want one line with %q", c.format, c.extra, err, c.want)
		}
	}
	// A tag that says what the field takes is no mistake.
	for _, extra := range []string{"folds: !!int 4\n", "folds: !!int \"4\"\n", "missing: !!str drop\nfolds: 4\n"} {
		y, _ := specPair(extra, "", "", "")
		s, err := Parse([]byte(y), "yaml")
		if err != nil || s.Options.Folds != 4 {
			t.Errorf("%q: folds %d, %v; want 4", extra, s.Options.Folds, err)
		}
	}
}
