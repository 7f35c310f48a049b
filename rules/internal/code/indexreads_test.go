package code_test

import (
	"testing"

	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// TestMaybeIndexRead: the text filter that keeps FW851 from parsing and
// walking files whose index reads are all used where undefined is fine.
func TestMaybeIndexRead(t *testing.T) {
	for src, want := range map[string]bool{
		"x = list[i].name":                  true,
		"f(list[i])":                        false,
		"String(a[by]).localeCompare(b)":    false,
		"return n + ' ' + units[i]\n":       false,
		"list[i]?.name":                     false,
		"list[i]!.name":                     false,
		"list[i] ?? 0":                      false,
		"list[i] = 1":                       false,
		"if (list[i] === 1) {}":             false,
		"const first = list[0]\n":           true,
		"return xs[xs.length - 1]\n":        true,
		"total = xs[0] * 2":                 true,
		"if (names[j].length > 3) {}":       true,
		"for (const x of groups[k]) {}":     true,
		"const all = [...groups[0]]":        true,
		"const [key, value] = s.split('=')": true,
		"let t: string[] = []":              false,
		"fns[0]()":                          true,
		"m[1] > 2":                          true,
		"a[i] && a[i].x":                    true,
		"'x' in objs[0]":                    true,
		"-arr[0]":                           true,
		"const x: number = 1":               false,
	} {
		if got := code.MaybeIndexRead([]byte(src)); got != want {
			t.Errorf("MaybeIndexRead(%q) = %v, want %v", src, got, want)
		}
	}
}
