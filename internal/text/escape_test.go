package text

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"app/pages/index.vue", "app/pages/index.vue"},
		{`C:\proj\fw.config.ts`, `C:\proj\fw.config.ts`},
		{"café/ü.vue", "café/ü.vue"},
		{"evil\x1b[31mred\x1b[0m", `evil\x1b[31mred\x1b[0m`},
		{"a\nb\r\tc\x00\x7f", `a\nb\r\tc\x00\x7f`},
		{"x\n::error title=pwned::gotcha", `x\n::error title=pwned::gotcha`},
		{"::error::at the start", `\x3a:error::at the start`},
		{"   ::warning::", `   \x3a:warning::`},
		{"name ##[error]forged", `name ##\x5berror]forged`},
		{"abc\u202etxt.ts", `abc\u202etxt.ts`},
		{"\u2066x\u2069\u200f", `\u2066x\u2069\u200f`},
		{"c1\u009b31m", `c1\u009b31m`},
		{"latin1 \xe9", `latin1 \xe9`},
		{"line\u2028sep", `line\u2028sep`},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := Escape(Escape(c.in)); got != c.want {
			t.Errorf("Escape is not idempotent on %q: %q", c.in, got)
		}
	}
}

func TestEscapeLines(t *testing.T) {
	in := "fw.config.ts: migrated\n  moved: a\x1b]0;title\x07\n::error::forged\n  ::notice::indented\n\t::debug::tab\n"
	want := "fw.config.ts: migrated\n  moved: a\\x1b]0;title\\x07\n\\x3a:error::forged\n  \\x3a:notice::indented\n\t\\x3a:debug::tab\n"
	if got := EscapeLines(in, false); got != want {
		t.Errorf("EscapeLines = %q, want %q", got, want)
	}
	colored := "\x1b[1mfw.config.ts\x1b[0m: \x1b[1;31merror\x1b[0m x\x1b[2Jy\n"
	if got, want := EscapeLines(colored, true), "\x1b[1mfw.config.ts\x1b[0m: \x1b[1;31merror\x1b[0m x\\x1b[2Jy\n"; got != want {
		t.Errorf("EscapeLines(sgr) = %q, want %q", got, want)
	}
	if got := EscapeLines(colored, false); strings.ContainsRune(got, 0x1b) {
		t.Errorf("EscapeLines without sgr kept an ESC: %q", got)
	}
}

func TestEscapeNoAlloc(t *testing.T) {
	s := "app/components/Hello.vue: a plain name, ünïcode too"
	if n := testing.AllocsPerRun(100, func() { _ = Escape(s) }); n != 0 {
		t.Errorf("Escape of a clean name allocates %v times", n)
	}
}
