package ast_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

// TestAssignmentsRead: the plain assignments after a config's declaration
// are read into Config (the object the module produces), the literal is
// left as written, and what cannot be known stops the reading at its key.
func TestAssignmentsRead(t *testing.T) {
	tests := []struct {
		name, src string
		config    string // Config as JSON (Static)
		literal   string // Literal as JSON
		read      string // the Read writes' paths, space-separated
		assigned  string // path=text of the Assigned properties, space-separated
	}{
		{
			name:     "through-casts",
			src:      "const c = { a: 1 }\n;(c as any).b = 2\nc!.d = 3\n;(<any>c).e = 4\n;(c satisfies Record<string, (x: number) => void>).f = 5\n;(c).g = 6\nexport default c\n",
			config:   `{"a":1,"b":2,"d":3,"e":4,"f":5,"g":6}`,
			literal:  `{"a":1}`,
			read:     "b d e f g",
			assigned: "b=b d=d e=e f=f g=g",
		},
		{
			name:    "comparison-not-a-cast",
			src:     "const c = { a: 1 }\nif ((x > c).b) y = 1\nexport default c\n",
			config:  `{"a":1}`,
			literal: `{"a":1}`,
		},
		{
			name:     "new-key",
			src:      "const c = { a: 1 }\nc.b = { x: 2 }\nexport default c\n",
			config:   `{"a":1,"b":{"x":2}}`,
			literal:  `{"a":1}`,
			read:     "b",
			assigned: "b=b",
		},
		{
			name:     "override-nested",
			src:      "const c = defineFwConfig({\n  dir: { static: 'public', pages: 'p' },\n})\nc.dir.static = 'static';\nc['dir'][\"app\"] = 'a'\nexport default c\n",
			config:   `{"dir":{"app":"a","pages":"p","static":"static"}}`,
			literal:  `{"dir":{"pages":"p","static":"public"}}`,
			read:     "dir.static dir.app",
			assigned: "dir.static=static dir.app=\"app\"",
		},
		{
			name:     "after-export-and-assigned-object",
			src:      "const c = { a: 1 }\nexport default c\nc.b = {}\nc.b.x = 1\n",
			config:   `{"a":1,"b":{"x":1}}`,
			literal:  `{"a":1}`,
			read:     "b b.x",
			assigned: "b=b b.x=x",
		},
		{
			name:    "missing-object-on-the-way",
			src:     "const c = { a: 1 }\nc.b.x = 1\nc.b = 2\nexport default c\n",
			config:  `{"a":1}`,
			literal: `{"a":1}`,
		},
		{
			name:     "unknown-write-first",
			src:      "const c = { a: { x: 1 } }\nif (y) c.a.x = 2\nc.a.x = 3\nc.b = 1\nexport default c\n",
			config:   `{"a":{"x":1},"b":1}`,
			literal:  `{"a":{"x":1}}`,
			read:     "b",
			assigned: "b=b",
		},
		{
			name:    "dynamic-key-stops",
			src:     "const c = { a: 1 }\nc[k] = 2\nc.b = 1\nexport default c\n",
			config:  `{"a":1}`,
			literal: `{"a":1}`,
		},
		{
			name:     "not-plain",
			src:      "const c = { a: 1, d: {} }\nc.b = 1, f()\nc.a += 1\nc.d.x = c.d.y = 1\nc.e = 1;\nexport default c\n",
			config:   `{"a":1,"d":{},"e":1}`,
			literal:  `{"a":1,"d":{}}`,
			read:     "e",
			assigned: "e=e",
		},
		{
			name:    "spread-may-replace",
			src:     "const c = { a: {}, ...base }\nc.a.x = 1\nexport default c\n",
			config:  "",
			literal: "",
		},
		{
			name:     "object-assign",
			src:      "const c = { a: 1, d: { x: 1 } }\nObject.assign(c, { b: 2, a: 3 }, { d: { y: 2 } });\nexport default c\n",
			config:   `{"a":3,"b":2,"d":{"y":2}}`,
			literal:  `{"a":1,"d":{"x":1}}`,
			read:     "b a d",
			assigned: "a=a d=d b=b",
		},
		{
			name:     "object-assign-not-plain",
			src:      "const c = { a: 1 }\nif (x) Object.assign(c, { a: 2 })\nfoo(Object.assign(c, { b: 2 }))\nObject.assign(c, { e() {} })\nc.f = 1\nexport default c\n",
			config:   `{"a":1,"f":1}`,
			literal:  `{"a":1}`,
			read:     "f",
			assigned: "f=f",
		},
		{
			name:     "object-assign-unknown-source",
			src:      "const c = { a: 1 }\nObject.assign(c, { b: 1 }, other)\nc.f = 1\nexport default c\n",
			config:   `{"a":1,"b":1}`,
			literal:  `{"a":1}`,
			read:     "b",
			assigned: "b=b",
		},
		{
			name:    "proto",
			src:     "const c = { a: 1 }\nc.__proto__ = base\nc.f = 1\nexport default c\n",
			config:  `{"a":1}`,
			literal: `{"a":1}`,
		},
		{
			name:     "aliases-in-order",
			src:      "const base = { a: 1 }\nconst c = base\nbase.b = 1\nc.b = 2\nexport default c\n",
			config:   `{"a":1,"b":2}`,
			literal:  `{"a":1}`,
			read:     "b b",
			assigned: "b=b",
		},
		{
			name:     "in-function-body",
			src:      "export default async () => {\n  const c = { a: 1 }\n  c.b = await g()\n  c.d = 'x'\n  return defineFwConfig(c)\n}\n",
			config:   "", // b is not static
			read:     "b d",
			assigned: "b=b d=d",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, "fw.config.ts", tt.src)
			if f.Config == nil || f.Literal == nil {
				t.Fatalf("Config %v, Literal %v: %s", f.Config, f.Literal, f.Reason)
			}
			if f.Config.Loc != f.Literal.Loc {
				t.Errorf("Config.Loc %v, Literal.Loc %v", f.Config.Loc, f.Literal.Loc)
			}
			if tt.config != "" {
				if got := staticJSON(t, f.Config); got != tt.config {
					t.Errorf("Config = %s, want %s", got, tt.config)
				}
			}
			if tt.literal != "" {
				if got := staticJSON(t, f.Literal); got != tt.literal {
					t.Errorf("Literal = %s, want %s", got, tt.literal)
				}
			}
			var read []string
			for _, w := range f.Writes {
				if w.Read {
					read = append(read, w.Path.String())
				}
			}
			if got := strings.Join(read, " "); got != tt.read {
				t.Errorf("read = %q, want %q", got, tt.read)
			}
			var assigned []string
			f.Walk(func(path ast.Path, p *ast.Property) bool {
				if p.Parent == nil || p.Parent.Get(p.Key) != p && p.KeyKind != ast.KeyComputed && p.Kind != ast.PropSpread {
					t.Errorf("%s: Parent does not hold it", path)
				}
				if st := f.Assigned(p); st.Len() > 0 {
					assigned = append(assigned, path.String()+"="+f.Text(p.KeySpan))
					if p.Loc.Start < st.Start || p.Loc.End > st.End || !strings.HasPrefix(f.Text(p.Loc), f.Text(p.KeySpan)) && p.Loc.Start != st.Start {
						t.Errorf("%s: Loc %q outside its statement %q", path, f.Text(p.Loc), f.Text(st))
					}
					if p.Value == nil || p.Value.Span().End != p.Loc.End {
						t.Errorf("%s: Value does not end the assignment %q", path, f.Text(p.Loc))
					}
				}
				return true
			})
			if got := strings.Join(assigned, " "); got != tt.assigned {
				t.Errorf("assigned = %q, want %q", got, tt.assigned)
			}
			// The literal holds no assigned property.
			var walk func(o *ast.Object)
			walk = func(o *ast.Object) {
				for _, p := range o.Props {
					if f.Assigned(p).Len() > 0 || p.Parent != o {
						t.Errorf("literal property %q: Assigned %v, Parent %p (object %p)", p.Key, f.Assigned(p), p.Parent, o)
					}
					if c, ok := ast.Unwrap(p.Value).(*ast.Object); ok {
						walk(c)
					}
				}
			}
			walk(f.Literal)
		})
	}
}

func staticJSON(t *testing.T, o *ast.Object) string {
	t.Helper()
	v, bad := ast.Static(o)
	if bad != nil {
		return "not static"
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
