package jsonc

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestMembers(t *testing.T) {
	tests := []struct {
		in   string
		keys []string // nil: not readable
		vals []string
	}{
		{"{}", []string{}, []string{}},
		{"\ufeff// c\n{ \"a\": 1, /* x */ \"b\": [1, {\"c\": \"}\"}], }", []string{"a", "b"}, []string{"1", `[1, {"c": "}"}]`}},
		{"{\r\n\t\"extends\": \"./.fw/tsconfig.json\" // why\r\n}", []string{"extends"}, []string{`"./.fw/tsconfig.json"`}},
		{`{"a": "x\"y", "b": null}`, []string{"a", "b"}, []string{`"x\"y"`, "null"}},
		{"{ extends: 'x' }", nil, nil},
		{`{"a": 1 "b": 2}`, nil, nil},
		{`{"a": [1, 2}`, nil, nil},
		{`{"a": "unterminated`, nil, nil},
		{`[1, 2]`, nil, nil}, // not an object
		{``, nil, nil},
	}
	for _, tt := range tests {
		items, ok := Members([]byte(tt.in))
		if ok != (tt.keys != nil) {
			t.Errorf("%q: ok %v", tt.in, ok)
			continue
		}
		if !ok {
			continue
		}
		if len(items) != len(tt.keys) {
			t.Errorf("%q: %d items, want %d", tt.in, len(items), len(tt.keys))
			continue
		}
		for i, it := range items {
			if tt.keys[i] != "" && it.Key([]byte(tt.in)) != tt.keys[i] {
				t.Errorf("%q: key %d = %q, want %q", tt.in, i, it.Key([]byte(tt.in)), tt.keys[i])
			}
			if v := tt.in[it.ValStart:it.ValEnd]; v != tt.vals[i] {
				t.Errorf("%q: value %d = %q, want %q", tt.in, i, v, tt.vals[i])
			}
		}
	}
}

func TestString(t *testing.T) {
	data := []byte(`{"a": "./x", "b": "a\"b", "c": 1}`)
	items, _ := Members(data)
	if s, ok := items[0].String(data); !ok || s != "./x" {
		t.Errorf("a: %q %v", s, ok)
	}
	if _, ok := items[1].String(data); ok {
		t.Errorf("b: a string with an escape read as written")
	}
	if _, ok := items[2].String(data); ok {
		t.Errorf("c: a number read as a string")
	}
}

// FuzzMembers: no input panics or hangs the reader, every range it
// returns lies inside the input in order, and on strict JSON objects it
// finds the members encoding/json finds.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{"{}", `{"a": [1, {"b": "}"}], /* c */ "d": true,}`, "{\"extends\": \"./.fw/tsconfig.json\"}", "{\n// x\n\"a\":1}", `["a"]`, `{"a":`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data := []byte(s)
		items, ok := Members(data)
		if !ok {
			return
		}
		last := 0
		for _, it := range items {
			if it.Start < last || it.ValStart < it.Start || it.ValEnd > len(data) || it.ValStart >= it.ValEnd || it.End != it.ValEnd {
				t.Fatalf("item %+v out of order in %q", it, s)
			}
			if it.KeyEnd > 0 {
				_ = it.Key(data)
			}
			last = it.End
		}
		var m map[string]json.RawMessage
		if utf8.Valid(data) && !bytes.ContainsRune(data, '\\') && json.Unmarshal(data, &m) == nil && data[Skip(data, 0)] == '{' {
			// Strict JSON in UTF-8 without escapes: the same keys as encoding/json.
			keys := map[string]bool{}
			for _, it := range items {
				keys[it.Key(data)] = true
			}
			if len(keys) != len(m) {
				t.Fatalf("%d keys, encoding/json has %d: %q", len(keys), len(m), s)
			}
			for k := range m {
				if !keys[k] {
					t.Fatalf("key %q missed in %q", k, s)
				}
			}
		}
	})
}
