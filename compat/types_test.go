package compat

import "testing"

func TestParseTypeRoundTrip(t *testing.T) {
	for _, s := range []string{
		"any", "string", "number", "boolean", "null", "object", "function", "regexp", "path", "url", "glob", "date",
		"array", "array<string>", "array<string | regexp>", "record<array<string>>",
		"'automatic' | 'automatic-immediate' | 'manual' | false",
		"boolean | 'hidden' | {server: boolean | 'hidden', client: boolean | 'hidden'}",
		"3 | 4 | 5", "-1 | 0.5", "'it\\'s' | 'a\\\\b'", "{}", "array<{src: path, mode: 'client' | 'server'}>",
	} {
		ty, err := ParseType(s)
		if err != nil {
			t.Errorf("ParseType(%q): %v", s, err)
			continue
		}
		if got := ty.String(); got != s {
			t.Errorf("ParseType(%q).String() = %q", s, got)
		}
	}
}

func TestParseTypeForms(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"(string | number) | boolean", "string | number | boolean"},
		{" array < string > ", "array<string>"},
		{"array<any>", "array"},
		{"{a: string,}", "{a: string}"},
	} {
		ty, err := ParseType(c.in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", c.in, err)
			continue
		}
		if got := ty.String(); got != c.want {
			t.Errorf("ParseType(%q).String() = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseTypeErrors(t *testing.T) {
	for _, s := range []string{"", "strin", "array<string", "{a string}", "'open", "string |", "(string", "{a: }", "string>", "-", "1.2.3"} {
		if _, err := ParseType(s); err == nil {
			t.Errorf("ParseType(%q) succeeded", s)
		}
	}
}

func TestTypeCheck(t *testing.T) {
	obj := map[string]any{"server": true, "client": "hidden"}
	for _, c := range []struct {
		typ  string
		v    any
		want bool
	}{
		{"string", "x", true},
		{"string", 1.0, false},
		{"boolean", "false", false},
		{"boolean", false, true},
		{"number", "3000", false},
		{"number", 3000.0, true},
		{"null", nil, true},
		{"null", false, false},
		{"any", []any{1.0}, true},
		{"object", obj, true},
		{"object", []any{}, false},
		{"array<string>", []any{"a", "b"}, true},
		{"array<string>", []any{"a", 1.0}, false},
		{"array<string>", []any{"a", DynamicValue{}}, true},
		{"array", "a", false},
		{"record<array<string>>", map[string]any{"ui": []any{"x"}}, true},
		{"record<array<string>>", map[string]any{"ui": "x"}, false},
		{"boolean | 'hidden' | {server: boolean | 'hidden', client: boolean | 'hidden'}", obj, true},
		{"boolean | 'hidden' | {server: boolean | 'hidden', client: boolean | 'hidden'}", map[string]any{"server": "yes"}, false},
		{"boolean | 'hidden' | {server: boolean | 'hidden', client: boolean | 'hidden'}", "hidden", true},
		{"boolean | 'hidden' | {server: boolean | 'hidden', client: boolean | 'hidden'}", "Hidden", false},
		{"{a: string}", map[string]any{"b": 1.0}, true},
		{"'automatic' | 'manual' | false", true, false},
		{"'automatic' | 'manual' | false", false, true},
		{"'automatic' | 'manual' | false", "manual", true},
		{"3 | 4 | 5", 4.0, true},
		{"3 | 4 | 5", "4", false},
		{"3 | 4 | 5", 6.0, false},
		{"function", "x", false},
		{"function", DynamicValue{}, true},
		{"regexp", "/x/", false},
		{"'' | url", "", true},
		{"'' | url", "https://cdn.example.com", true},
		{"'' | url", "/cdn", false},
		{"'' | url", "cdn.example.com", false},
		{"url", "//cdn.example.com", false},
		{"date", "2024-11-22", true},
		{"date", "2024-02-29", true},
		{"date", "2023-02-29", false},
		{"date", "2024-13-01", false},
		{"date", "2024-1-01", false},
		{"date", "latest", false},
		{"path", "~/assets", true},
		{"glob", "**/*.ts", true},
		{"object", MapConfig{"a": 1.0}, true},
		{"'a' | 'b'", map[string]any{}, false}, // an uncomparable value never panics
	} {
		ty := MustParseType(c.typ)
		if got := ty.Check(c.v); got != c.want {
			t.Errorf("%s.Check(%#v) = %v, want %v", c.typ, c.v, got, c.want)
		}
	}
}

func TestTypeLiterals(t *testing.T) {
	ty := MustParseType("'automatic' | 'automatic-immediate' | 'manual' | false")
	got := ty.Literals()
	want := []any{"automatic", "automatic-immediate", "manual", false}
	if len(got) != len(want) {
		t.Fatalf("Literals() = %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Literals()[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if l := MustParseType("string").Literals(); l != nil {
		t.Errorf("string has literals %v", l)
	}
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"array<string | regexp>", "{a: 'x', b: 3}", "((((", "'\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ty, err := ParseType(s)
		if err != nil {
			return
		}
		// What parses prints back to a form that parses to the same text.
		s2 := ty.String()
		ty2, err := ParseType(s2)
		if err != nil {
			t.Fatalf("ParseType(%q) -> %q does not parse: %v", s, s2, err)
		}
		if s3 := ty2.String(); s3 != s2 {
			t.Fatalf("round trip %q -> %q -> %q", s, s2, s3)
		}
		ty.Check(map[string]any{"a": []any{1.0, "x", nil}})
	})
}
