package move_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/rewrite/move/internal/specs"
)

// TestEscapedSpecifiers: imports are compared on their value, escapes
// decoded, and rewritten in the literal's own spelling: the escapes of the
// part that stays are kept, the delimiter is the file's.
func TestEscapedSpecifiers(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"fw.config.ts":          "export default defineFwConfig({})\n",
		"components/q'uote.vue": "<template><p /></template>\n",
		"components/t\tab.ts":   "export const t = 1\n",
		"components/x.ts":       "export const x = 1\n",
		"components/d\"q.ts":    "export const d = 1\n",
		"server/api/a.ts": `import Q from '../../components/q\'uote.vue'
import { t } from "../../components/t\tab"
import { x } from '../../comp\u006fnents/x'
import { d } from "../../components/d\"q"
const y = ` + "`../../components/x`" + `
export default () => [Q, t, x, d]
`,
	})
	p, err := move.PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	for _, n := range p.Notes {
		if strings.Contains(n, "not an import") && !strings.Contains(n, "a.ts:5:") {
			t.Errorf("an escaped import is noted as a string: %s", n)
		}
	}
	must(t, execute(p))
	got, _ := os.ReadFile(filepath.Join(dir, "server", "api", "a.ts"))
	want := `import Q from '../../app/components/q\'uote.vue'
import { t } from "../../app/components/t\tab"
import { x } from '../../app/comp\u006fnents/x'
import { d } from "../../app/components/d\"q"
const y = ` + "`../../components/x`" + `
export default () => [Q, t, x, d]
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRespell(t *testing.T) {
	for _, c := range []struct {
		raw   string
		quote byte
		out   string
		want  string
	}{
		{`../c/q\'uote.vue`, '\'', "../app/c/q'uote.vue", `../app/c/q\'uote.vue`},
		{`..\u002fc/x`, '\'', "../app/c/x", `../app\u002fc/x`},
		{`../c/x\u0027`, '"', "./x'", `./x\u0027`},
		{`../c/a`, '`', "./${a}", "./\\${a}"},
		{`../c/a\x41`, '"', `./"A`, `./\"\x41`},
	} {
		val, ok := decodeForTest(c.raw, c.quote)
		if !ok {
			t.Fatalf("%s does not decode", c.raw)
		}
		if got := rewrite.Respell(c.raw, c.quote, val, c.out); got != c.want {
			t.Errorf("respell(%s, %q) = %s, want %s", c.raw, c.out, got, c.want)
		}
	}
}

func decodeForTest(raw string, quote byte) (string, bool) {
	var l specs.Lexer
	src := string(quote) + raw + string(quote)
	text := []byte("import(" + src + ")")
	refs, _ := l.Scan(text, 0, false, nil)
	if len(refs) != 1 {
		return "", false
	}
	return refs[0].Value(text), true
}
