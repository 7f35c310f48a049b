package pathx

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRel(t *testing.T) {
	for _, c := range []struct {
		dir, path, rel string
		ok             bool
	}{
		{"/p", "/p", ".", true},
		{"/p", "/p/a/b", "a/b", true},
		{"/p", "/p/..x", "..x", true},          // a folder named ..x is inside
		{"/p", "/p/.../y", ".../y", true},      // and so is one named ...
		{"/p", "/p/a/../..x/y", "..x/y", true}, // cleaned first
		{"/p", "/", "", false},
		{"/p", "/q", "", false},
		{"/p", "/p/../q", "", false},
		{"/p", "/px", "", false},
		{"/p/a", "/p", "", false},
		{"/p", "rel", "", false}, // absolute against relative: outside
	} {
		rel, ok := Rel(filepath.FromSlash(c.dir), filepath.FromSlash(c.path))
		if ok != c.ok || filepath.ToSlash(rel) != c.rel {
			t.Errorf("Rel(%q, %q) = %q, %v; want %q, %v", c.dir, c.path, rel, ok, c.rel, c.ok)
		}
		if Within(filepath.FromSlash(c.path), filepath.FromSlash(c.dir)) != c.ok {
			t.Errorf("Within(%q, %q) != %v", c.path, c.dir, c.ok)
		}
	}
	if _, ok := Under("/p", "/p"); ok {
		t.Error("Under: a folder is not under itself")
	}
	if rel, ok := Under("/p", "/p/..x/y"); !ok || rel != "..x/y" {
		t.Errorf("Under(/p, /p/..x/y) = %q, %v", rel, ok)
	}
}

func TestDisplay(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		filepath.Join(wd, "..x", "f"):           filepath.Join("..x", "f"),
		filepath.Join(wd, "a"):                  "a",
		filepath.Join(filepath.Dir(wd), "else"): filepath.Join(filepath.Dir(wd), "else"),
		filepath.Join("..x", "f"):               filepath.Join("..x", "f"),
	} {
		if got := Display(in); got != want {
			t.Errorf("Display(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWithinClean(t *testing.T) {
	for _, c := range []struct {
		p, dir string
		ok     bool
	}{
		{"/p", "/p", true}, {"/p/a", "/p", true}, {"/p/..x", "/p", true}, {"/px", "/p", false},
		{"/q", "/p", false}, {"/p", "/p/a", false}, {"/a", "/", true},
	} {
		if got := WithinClean(filepath.FromSlash(c.p), filepath.FromSlash(c.dir)); got != c.ok {
			t.Errorf("WithinClean(%q, %q) = %v", c.p, c.dir, got)
		}
		if got := Within(filepath.FromSlash(c.p), filepath.FromSlash(c.dir)); got != c.ok {
			t.Errorf("Within(%q, %q) = %v: the two answers differ", c.p, c.dir, got)
		}
	}
}
