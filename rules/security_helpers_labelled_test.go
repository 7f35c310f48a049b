package rules_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// The labelled secret set (testdata/secrets/labelled.tsv) measures how well
// the value checks of FW502 (a secret written in the config) and FW506 (a
// secret in a committed .env file) tell secrets from what only looks like
// one: placeholders, the example tokens of vendors' documentation, keys made
// for browsers, hashes and ids.
//
// Each line is one string: its key (a dotted key path in the config, a
// variable name in a .env file, "-" for a comment line that is prose), its
// value, the context it is written in, whether it is a secret, and where it
// comes from; an optional sixth column is one more key=value written beside
// it (an AWS key ID next to its secret, a Firebase authDomain). Contexts:
//
//   - rc: runtimeConfig.<key> (server only)
//   - public: runtimeConfig.public.<key>
//   - option: <key> at the config's top level (a module's options)
//   - module: the options object of a modules entry, ['@acme/x', {<key>}]
//   - env: KEY=value in a committed .env file
//   - env-comment: # KEY=value, a commented-out line of a committed .env
//
// Values never hold a real secret: a secret's value is a template whose
// {kind:n} parts are filled with random characters of the provider's
// alphabet when the test runs ({alnum:24}, {hex:64}, {url:93}, {b64:40},
// {b32:16}, {upper:10}, {lower:8}, {letters:34}, {digits:12}), {uuid},
// {jwt:claim=value,...} (a JSON Web Token with those claims and a random
// signature) and {pem:LABEL} (a PEM private key of random bytes); \n is a
// newline. The documented examples are written as their documentation
// prints them. So the repository holds no secret a scanner should find,
// and every run checks the same shapes with other random characters
// (seeded: a failure names its seed).
//
// Each string is written into a project of its own, in a git repository
// whose .gitignore does not exclude .env, and checked by the real rules; a
// string counts as found when FW502 or FW506 reports on its line (FW501,
// which judges key names under public whatever their value, is not
// counted). TestLabelledSecrets prints precision and recall and fails below
// 0.97 and 0.95, and whenever a finding's message or notes quote the
// secret.
//
// FW_SECRETS_DUMP=dir writes the projects of the first seed there (one
// directory per line of the set, named by its line number) and an
// index.tsv (directory, file, line of the string, secret, context), for
// comparing other scanners on the same strings.

const (
	minPrecision = 0.97
	minRecall    = 0.95
)

type labelled struct {
	line                     int
	key, value, context      string
	secret                   bool
	source, withKey, withVal string
}

func readLabelled(t testing.TB) []labelled {
	t.Helper()
	f, err := os.Open("testdata/secrets/labelled.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) < 5 || len(cols) > 6 {
			t.Fatalf("labelled.tsv:%d: %d columns, want 5 or 6", n, len(cols))
		}
		e := labelled{line: n, key: cols[0], value: cols[1], context: cols[2], source: cols[4]}
		switch cols[3] {
		case "yes":
			e.secret = true
		case "no":
		default:
			t.Fatalf("labelled.tsv:%d: secret is %q, want yes or no", n, cols[3])
		}
		switch e.context {
		case "rc", "public", "option", "module", "env", "env-comment":
		default:
			t.Fatalf("labelled.tsv:%d: unknown context %q", n, e.context)
		}
		if len(cols) == 6 {
			var ok bool
			if e.withKey, e.withVal, ok = strings.Cut(cols[5], "="); !ok {
				t.Fatalf("labelled.tsv:%d: the sixth column is key=value", n)
			}
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var genPart = regexp.MustCompile(`\{(alnum|hex|HEX|url|b64|b32|upper|lower|letters|digits|uuid|jwt|pem)(?::([^}]*))?\}`)

var alphabets = map[string]string{
	"alnum":   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"hex":     "0123456789abcdef",
	"HEX":     "0123456789ABCDEF",
	"url":     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
	"b64":     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	"b32":     "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
	"upper":   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
	"lower":   "abcdefghijklmnopqrstuvwxyz0123456789",
	"letters": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	"digits":  "0123456789",
}

func randomFrom(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

// expand fills a value's templates with random characters and turns \n
// into newlines.
func expand(t testing.TB, r *rand.Rand, v string) string {
	v = genPart.ReplaceAllStringFunc(v, func(m string) string {
		sm := genPart.FindStringSubmatch(m)
		kind, arg := sm[1], sm[2]
		switch kind {
		case "uuid":
			h := alphabets["hex"]
			return randomFrom(r, h, 8) + "-" + randomFrom(r, h, 4) + "-4" + randomFrom(r, h, 3) + "-a" + randomFrom(r, h, 3) + "-" + randomFrom(r, h, 12)
		case "jwt":
			claims := map[string]any{"iat": 1700000000 + r.IntN(50000000)}
			for _, kv := range strings.Split(arg, ",") {
				if k, val, ok := strings.Cut(kv, "="); ok {
					claims[k] = expand(t, r, val)
				}
			}
			body, _ := json.Marshal(claims)
			enc := base64.RawURLEncoding
			return enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc.EncodeToString(body) + "." + enc.EncodeToString(randomBytes(r, 32))
		case "pem":
			label := "PRIVATE KEY"
			if arg != "" {
				label = arg + " PRIVATE KEY"
			}
			body := base64.StdEncoding.EncodeToString(randomBytes(r, 600))
			var b strings.Builder
			b.WriteString("-----BEGIN " + label + "-----\n")
			for len(body) > 64 {
				b.WriteString(body[:64] + "\n")
				body = body[64:]
			}
			b.WriteString(body + "\n-----END " + label + "-----")
			return b.String()
		}
		n, err := strconv.Atoi(arg)
		if err != nil || n <= 0 {
			t.Fatalf("bad template %s", m)
		}
		return randomFrom(r, alphabets[kind], n)
	})
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(v)
}

// jsString writes s as a JavaScript string: a template literal when it
// spans lines (as PEM keys are written), else a double-quoted string.
func jsString(s string) string {
	if strings.Contains(s, "\n") && !strings.ContainsAny(s, "`\\") && !strings.Contains(s, "${") {
		return "`" + s + "`"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

var jsIdent = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func jsKey(k string) string {
	if jsIdent.MatchString(k) {
		return k
	}
	return jsString(k)
}

// envValue writes s as the value of a .env assignment: double-quoted when
// it has to be (spaces, #, quotes, newlines), else as it is.
func envValue(s string) string {
	if !strings.ContainsAny(s, " \t\n#\"'`\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// labelledProject writes the project of one labelled string under dir and
// returns its config's path and the 1-based line the string is on, in the
// config or in .env.
func labelledProject(t testing.TB, dir string, e labelled, value, withVal string) (cfg string, line int) {
	write(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, ".gitignore"), "node_modules\n")
	cfg = filepath.Join(dir, "fw.config.ts")
	switch e.context {
	case "env", "env-comment":
		write(t, cfg, "export default defineFwConfig({})\n")
		var b strings.Builder
		b.WriteString("# settings of the app\n")
		line = 2
		if e.withKey != "" {
			b.WriteString(e.withKey + "=" + envValue(withVal) + "\n")
			line++
		}
		switch {
		case e.context == "env":
			b.WriteString(e.key + "=" + envValue(value) + "\n")
		case e.key == "-":
			b.WriteString("# " + value + "\n")
		default:
			b.WriteString("# " + e.key + "=" + envValue(value) + "\n")
		}
		b.WriteString("PORT=3000\n")
		write(t, filepath.Join(dir, ".env"), b.String())
		return cfg, line
	}
	var lines []string
	indent := "  "
	open := func(s string) {
		lines = append(lines, indent+s)
		indent += "  "
	}
	lines = append(lines, "export default defineFwConfig({")
	closers := 0
	switch e.context {
	case "rc":
		open("runtimeConfig: {")
		closers++
	case "public":
		open("runtimeConfig: {")
		open("public: {")
		closers += 2
	case "module":
		open("modules: [")
		open("['@acme/x', {")
		closers += 2
	}
	segs := strings.Split(e.key, ".")
	for _, s := range segs[:len(segs)-1] {
		open(jsKey(s) + ": {")
		closers++
	}
	lines = append(lines, indent+jsKey(segs[len(segs)-1])+": "+jsString(value)+",")
	line = len(lines)
	if e.withKey != "" {
		lines = append(lines, indent+jsKey(e.withKey)+": "+jsString(withVal)+",")
	}
	for ; closers > 0; closers-- {
		indent = indent[:len(indent)-2]
		switch {
		case e.context == "module" && closers == 2:
			lines = append(lines, indent+"}],")
		case e.context == "module" && closers == 1:
			lines = append(lines, indent+"],")
		default:
			lines = append(lines, indent+"},")
		}
	}
	lines = append(lines, "})")
	write(t, cfg, strings.Join(lines, "\n")+"\n")
	return cfg, line
}

type secretScore struct{ tp, fp, fn, tn int }

func (s secretScore) precision() float64 {
	if s.tp+s.fp == 0 {
		return 1
	}
	return float64(s.tp) / float64(s.tp+s.fp)
}

func (s secretScore) recall() float64 {
	if s.tp+s.fn == 0 {
		return 1
	}
	return float64(s.tp) / float64(s.tp+s.fn)
}

func (s *secretScore) add(secret, found bool) {
	switch {
	case secret && found:
		s.tp++
	case secret:
		s.fn++
	case found:
		s.fp++
	default:
		s.tn++
	}
}

// quotes reports whether text quotes a secret: the whole value, or any 12
// characters of it in a row.
func quotes(text, secret string) bool {
	const window = 12
	if len(secret) < window {
		return len(secret) >= 8 && strings.Contains(text, secret)
	}
	for i := 0; i+window <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+window]) {
			return true
		}
	}
	return false
}

func TestLabelledSecrets(t *testing.T) {
	set := readLabelled(t)
	if len(set) < 120 {
		t.Errorf("the labelled set has %d strings, want 120 or more", len(set))
	}
	yes := 0
	for _, e := range set {
		if e.secret {
			yes++
		}
	}
	if yes < len(set)/3 || len(set)-yes < len(set)/3 {
		t.Errorf("the labelled set has %d secrets of %d strings: keep both kinds at a third or more", yes, len(set))
	}
	seeds := []uint64{1, 2, 3, 4, 5}
	if testing.Short() {
		seeds = seeds[:1]
	}
	dump := os.Getenv("FW_SECRETS_DUMP")
	var index []string // directory, file, line, secret, context: for other scanners
	defer func() {
		if dump != "" {
			write(t, filepath.Join(dump, "index.tsv"), strings.Join(index, ""))
		}
	}()
	for _, seed := range seeds {
		var total secretScore
		byContext := map[string]*secretScore{}
		var misses []string
		for _, e := range set {
			r := rand.New(rand.NewPCG(seed, uint64(e.line)))
			value := expand(t, r, e.value)
			withVal := expand(t, r, e.withVal)
			dir := t.TempDir()
			if dump != "" && seed == seeds[0] {
				dir = filepath.Join(dump, strconv.Itoa(e.line))
			}
			cfg, line := labelledProject(t, dir, e, value, withVal)
			if dump != "" && seed == seeds[0] {
				file := "fw.config.ts"
				if strings.HasPrefix(e.context, "env") {
					file = ".env"
				}
				index = append(index, fmt.Sprintf("%d\t%s\t%d\t%v\t%s\n", e.line, file, line, e.secret, e.context))
			}
			p := project.LoadProject(cfg, "fw.config.ts")
			found := false
			for _, d := range rules.Check(p, rules.Options{Target: 4, Select: []string{"FW502", "FW506"}}) {
				if d.Code != "FW502" && d.Code != "FW506" {
					continue
				}
				all := d.Message + "\n" + strings.Join(d.Notes, "\n")
				if d.Fix != nil {
					all += "\n" + d.Fix.Description
				}
				if e.secret && quotes(all, value) {
					t.Errorf("labelled.tsv:%d: the finding quotes the secret: %s", e.line, all)
				}
				if d.Line == line {
					found = true
				}
			}
			total.add(e.secret, found)
			if byContext[e.context] == nil {
				byContext[e.context] = &secretScore{}
			}
			byContext[e.context].add(e.secret, found)
			if found != e.secret {
				kind := "missed"
				if found {
					kind = "false alarm"
				}
				misses = append(misses, fmt.Sprintf("labelled.tsv:%d: %s: %s %s (%s)", e.line, kind, e.context, e.key, e.source))
			}
		}
		t.Logf("seed %d: %d strings (%d secrets): precision %.3f, recall %.3f (tp %d, fp %d, fn %d, tn %d)",
			seed, len(set), yes, total.precision(), total.recall(), total.tp, total.fp, total.fn, total.tn)
		for _, c := range []string{"rc", "public", "option", "module", "env", "env-comment"} {
			if s := byContext[c]; s != nil {
				t.Logf("  %-11s precision %.3f, recall %.3f (tp %d, fp %d, fn %d, tn %d)", c, s.precision(), s.recall(), s.tp, s.fp, s.fn, s.tn)
			}
		}
		for _, m := range misses {
			t.Log("  " + m)
		}
		if total.precision() < minPrecision || total.recall() < minRecall {
			t.Errorf("seed %d: precision %.3f (want %.2f or more), recall %.3f (want %.2f or more)", seed, total.precision(), minPrecision, total.recall(), minRecall)
		}
	}
}
