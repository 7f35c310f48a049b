package rules

import (
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

// FuzzFindToken: the token, private-key, JWT and entropy checks take any
// text (a config's string, a .env value) without panicking, and a found
// token names its format.
func FuzzFindToken(f *testing.F) {
	for _, s := range []string{
		"sk_live_9DoV8gz4FkQ1okTBGzvAmwuf",
		"Bearer ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d",
		"xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
		"xoxb--",
		"-----BEGIN RSA PRIVATE KEY-----\n" + "GBLEPH1qhT61qtc4xatws8phP9nhFyJfm5di4PzJ59FHz5r1pY4OjE2jBMptUsGr" + "\n-----END RSA PRIVATE KEY-----",
		"-----BEGIN ",
		"eyJ.eyJ.x",
		"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiaWF0IjoxNzAwMDAwMDAwfQ.CnD8zRA9a9SkpXz9w3QlY7Zkuvqdt7s8Stqcbnr3yBd",
		"AKIAUVW75EFR6EDT4SYW", "AIza", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tok, ok := findToken(s, ast.Path{"runtimeConfig", "x"}, nil); ok && tok.What == "" {
			t.Errorf("findToken(%q): a token without a name", s)
		}
		highEntropy(s)
		placeholderToken(s)
	})
}
