package semver

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"1.2.3":           "1.2.3",
		" v1.2.3 ":        "1.2.3",
		"=3.0.0-rc.11":    "3.0.0-rc.11",
		"1.2.3+sha.1":     "1.2.3",
		"1.2.3beta":       "1.2.3-beta",
		"4.0.0-alpha.1":   "4.0.0-alpha.1",
		"3.14.1592":       "3.14.1592",
		"22.12.0-nightly": "22.12.0-nightly",
	} {
		v, err := Parse(in)
		if err != nil || v.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, v, err, want)
		}
	}
	for _, in := range []string{"", "1.2", "1", "x", "1.2.3.4", "a.b.c", "1.2.3-", "1.2.3 4", "99999999999999999999.0.0", strings.Repeat("1", 300)} {
		if v, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, v)
		}
	}
}

func TestCompare(t *testing.T) {
	order := []string{"1.0.0-0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0", "10.0.0"}
	for i := range order {
		for j := range order {
			a, b := MustParse(order[i]), MustParse(order[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := a.Compare(b); got != want {
				t.Errorf("%s vs %s = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestRanges(t *testing.T) {
	tests := []struct {
		rng    string
		normal string
		yes    []string
		no     []string
	}{
		{"^3.0.0-rc.11", ">=3.0.0-rc.11 <4.0.0-0", []string{"3.0.0-rc.11", "3.0.0-rc.12", "3.0.0", "3.21.11"}, []string{"3.0.0-rc.10", "3.1.0-rc.1", "4.0.0", "4.0.0-rc.1"}},
		{">=3.0.0-rc.11", ">=3.0.0-rc.11", []string{"3.0.0", "4.5.2", "5.0.0"}, []string{"4.0.0-rc.1", "3.0.0-rc.1"}},
		{">=4.1.0 || ^3.19.0", ">=4.1.0 || >=3.19.0 <4.0.0-0", []string{"3.19.0", "4.1.0", "4.5.2"}, []string{"3.18.0", "4.0.3"}},
		{"^20.19.0 || >=22.12.0", ">=20.19.0 <21.0.0-0 || >=22.12.0", []string{"20.19.0", "22.12.0", "24.1.0"}, []string{"20.18.3", "21.7.0", "22.11.0"}},
		{"~3.7", ">=3.7.0 <3.8.0-0", []string{"3.7.0", "3.7.9"}, []string{"3.8.0", "3.6.9"}},
		{"~3.7.2", ">=3.7.2 <3.8.0-0", []string{"3.7.2"}, []string{"3.7.1", "3.8.0"}},
		{"~3", ">=3.0.0 <4.0.0-0", []string{"3.9.0"}, []string{"4.0.0"}},
		{"3.x", ">=3.0.0 <4.0.0-0", []string{"3.0.0", "3.99.1"}, []string{"4.0.0", "2.9.9"}},
		{"^3.0.x", ">=3.0.0 <4.0.0-0", []string{"3.5.0"}, []string{"4.0.0"}},
		{">=3", ">=3.0.0", []string{"3.0.0", "9.0.0"}, []string{"2.9.9"}},
		{">=3.16", ">=3.16.0", []string{"3.16.0"}, []string{"3.15.9"}},
		{"<4", "<4.0.0-0", []string{"3.99.0"}, []string{"4.0.0", "4.0.0-rc.1"}},
		{">3", ">=4.0.0", []string{"4.0.0"}, []string{"3.9.9"}},
		{"<=3.7", "<3.8.0-0", []string{"3.7.9"}, []string{"3.8.0"}},
		{">3.7", ">=3.8.0", []string{"3.8.0"}, []string{"3.7.9"}},
		{"1.2 - 2.3.4", ">=1.2.0 <=2.3.4", []string{"1.2.0", "2.3.4"}, []string{"2.3.5", "1.1.9"}},
		{"1.2.3 - 2", ">=1.2.3 <3.0.0-0", []string{"2.9.9"}, []string{"3.0.0"}},
		{"1.2.3 - 2.3", ">=1.2.3 <2.4.0-0", []string{"2.3.9"}, []string{"2.4.0"}},
		{"3.4.1", "3.4.1", []string{"3.4.1"}, []string{"3.4.2"}},
		{"=3.4.1", "3.4.1", []string{"3.4.1"}, []string{"3.4.2"}},
		{"*", "*", []string{"0.0.0", "9.9.9"}, []string{"1.0.0-rc.1"}},
		{"", "*", []string{"1.0.0"}, nil},
		{"x", "*", []string{"1.0.0"}, nil},
		{"^0.6.4", ">=0.6.4 <0.7.0-0", []string{"0.6.9"}, []string{"0.7.0"}},
		{"^0.0.3", ">=0.0.3 <0.0.4-0", []string{"0.0.3"}, []string{"0.0.4"}},
		{"^0.x", ">=0.0.0 <1.0.0-0", []string{"0.9.0"}, []string{"1.0.0"}},
		{"^0.1.x", ">=0.1.0 <0.2.0-0", []string{"0.1.5"}, []string{"0.2.0"}},
		{"^3.0.0 || ^4.0.0-0", ">=3.0.0 <4.0.0-0 || >=4.0.0-0 <5.0.0-0", []string{"4.0.0-rc.1", "4.5.0"}, []string{"5.0.0-0"}},
		{">= 3.7.0  <4", ">=3.7.0 <4.0.0-0", []string{"3.7.0"}, []string{"4.0.0"}},
		{"^ 3.7", ">=3.7.0 <4.0.0-0", []string{"3.7.0"}, []string{"4.0.0"}},
		{"~>3.2.1", ">=3.2.1 <3.3.0-0", []string{"3.2.5"}, []string{"3.3.0"}},
		{">=3.7.0 || 4.x || 5.x", ">=3.7.0 || >=4.0.0 <5.0.0-0 || >=5.0.0 <6.0.0-0", []string{"5.1.0"}, nil},
		{"v3.2.0", "3.2.0", []string{"3.2.0"}, nil},
	}
	for _, tt := range tests {
		r, err := ParseRange(tt.rng)
		if err != nil {
			t.Errorf("ParseRange(%q): %v", tt.rng, err)
			continue
		}
		if got := r.Normal(); got != tt.normal {
			t.Errorf("%q normal = %q, want %q", tt.rng, got, tt.normal)
		}
		for _, v := range tt.yes {
			if !r.Satisfies(MustParse(v)) {
				t.Errorf("%q should admit %s", tt.rng, v)
			}
		}
		for _, v := range tt.no {
			if r.Satisfies(MustParse(v)) {
				t.Errorf("%q should not admit %s", tt.rng, v)
			}
		}
	}
	for _, bad := range []string{"latest", "npm:@fw/kit-edge@latest", "workspace:*", "catalog:", "file:../x", "github:a/b", "https://x/y.tgz", ">=3.0.0 foo", "1.2.3.4", "^", ">=", strings.Repeat("1 ", 200)} {
		if r, err := ParseRange(bad); err == nil {
			t.Errorf("ParseRange(%q) = %q, want an error", bad, r.Normal())
		}
	}
}

func TestIntersectsAndSubset(t *testing.T) {
	tests := []struct {
		a, b       string
		intersects bool
		subset     bool // a within b
	}{
		{"^3.0.0-rc.11", ">=4.0.0 <5.0.0-0", false, false},
		{">=3.0.0-rc.11", ">=4.0.0 <5.0.0-0", true, false},
		{">=4.1.0 || ^3.19.0", ">=4.0.0 <5.0.0-0", true, false},
		{"^3.0.0 || ^4.0.0-0", ">=5.0.0 <6.0.0-0", false, false},
		{"^4.0.0", ">=4.0.0 <5.0.0-0", true, true},
		{"20.x", "^20.19.0 || >=22.12.0", true, false},
		{"20.11.1", "^20.19.0 || >=22.12.0", false, false},
		{"22.19.0", "^22.19.0 || ^24.11.0 || >=26.0.0", true, true},
		{">=22.19.0 <23", "^22.19.0 || ^24.11.0 || >=26.0.0", true, true},
		{"<0.0.0-0", "*", false, true},
		{"1.2.3", "1.2.3", true, true},
		{">1.2.3", "<=1.2.3", false, false},
		{">=1.2.3", "<=1.2.3", true, false},
	}
	for _, tt := range tests {
		a, b := MustParseRange(tt.a), MustParseRange(tt.b)
		if got := a.Intersects(b); got != tt.intersects {
			t.Errorf("%q intersects %q = %v", tt.a, tt.b, got)
		}
		if got := b.Intersects(a); got != tt.intersects {
			t.Errorf("%q intersects %q = %v (reversed)", tt.b, tt.a, got)
		}
		if got := a.Subset(b); got != tt.subset {
			t.Errorf("%q subset of %q = %v", tt.a, tt.b, got)
		}
	}
}

func TestMax(t *testing.T) {
	vs := []Version{MustParse("4.4.5"), MustParse("4.5.2"), MustParse("4.4.6"), MustParse("4.6.0-rc.1")}
	if v, ok := MustParseRange("<4.4.6").Max(vs); !ok || v.String() != "4.4.5" {
		t.Errorf("Max = %v %v", v, ok)
	}
	if _, ok := MustParseRange("^5").Max(vs); ok {
		t.Error("Max found a version of ^5")
	}
	if v, ok := MustParseRange(">=4.1.0 || ^3.19.0").Floor(); !ok || v.String() != "3.19.0" {
		t.Errorf("Floor = %v %v", v, ok)
	}
}

// npmSemver finds the semver package bundled with npm, the oracle.
func npmSemver(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the npm oracle runs node: skipped under -short")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the comparison with npm's semver is skipped")
	}
	out, err := exec.Command("npm", "root", "-g").Output()
	if err != nil {
		t.Skipf("npm is not installed (npm root -g: %v): the comparison with npm's semver is skipped", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "npm", "node_modules", "semver")
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		t.Skipf("npm's own semver is not at %s: the comparison is skipped", dir)
	}
	return dir
}

// TestAgainstNpm compares Satisfies and AdmitsMajor with npm's semver
// (loose) on every range and version of compat/ecosystem.json and a few
// more: the matcher must agree with npm everywhere.
func TestAgainstNpm(t *testing.T) {
	dir := npmSemver(t)
	ranges := map[string]bool{}
	versions := map[string]bool{}
	data, err := os.ReadFile("../../compat/ecosystem.json")
	if err != nil {
		t.Fatal(err)
	}
	collect(data, ranges, versions)
	for _, r := range []string{"~3.7", "3.x", "<4", ">3", "<=3.7", "1.2 - 2.3.4", "1.2.3 - 2", "^0.x", "^0.0.3", "*", "", ">=3.7.0 <4", "~>3.2.1", "20", "20.x", "lts/*", "^22"} {
		ranges[r] = true
	}
	for _, v := range []string{"4.0.0-rc.1", "3.0.0-rc.12", "3.0.0-rc.5", "4.0.0-alpha.1", "5.0.0-0", "5.0.0", "3.7.9", "3.8.0", "2.3.5", "0.0.3", "0.0.4", "20.19.0", "22.12.0", "22.11.0", "24.11.0", "26.1.0", "18.20.5", "20.8.0", "1.2.0", "0.1.5"} {
		versions[v] = true
	}
	type q struct{ R, V string }
	var qs []q
	var rs []string
	for r := range ranges {
		rs = append(rs, r)
		for v := range versions {
			qs = append(qs, q{r, v})
		}
	}
	in, _ := json.Marshal(map[string]any{"pairs": qs, "ranges": rs})
	script := `
const semver = require(process.argv[1]);
let buf = ''; process.stdin.on('data', d => buf += d).on('end', () => {
  const {pairs, ranges} = JSON.parse(buf);
  const out = {sat: [], valid: {}, admits: {}};
  for (const r of ranges) {
    const ok = semver.validRange(r, {loose: true}) !== null;
    out.valid[r] = ok;
    if (ok) out.admits[r] = [3,4,5].map(m => semver.intersects(r, '>=' + m + '.0.0 <' + (m+1) + '.0.0-0', {loose: true}));
  }
  for (const {R, V} of pairs) out.sat.push(out.valid[R] ? semver.satisfies(V, R, {loose: true}) : null);
  process.stdout.write(JSON.stringify(out));
});`
	cmd := exec.Command("node", "-e", script, dir)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var res struct {
		Sat    []*bool
		Valid  map[string]bool
		Admits map[string][]bool
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for r, ok := range res.Valid {
		rng, err := ParseRange(r)
		if (err == nil) != ok {
			t.Errorf("%q: npm valid %v, ours %v", r, ok, err)
			continue
		}
		if !ok {
			continue
		}
		for i, m := range []uint64{3, 4, 5} {
			if got := rng.AdmitsMajor(m); got != res.Admits[r][i] {
				t.Errorf("%q admits major %d: npm %v, ours %v", r, m, res.Admits[r][i], got)
			}
		}
	}
	for i, p := range qs {
		if res.Sat[i] == nil {
			continue
		}
		rng, err := ParseRange(p.R)
		if err != nil {
			continue
		}
		if got := rng.Satisfies(MustParse(p.V)); got != *res.Sat[i] {
			bad++
			if bad < 20 {
				t.Errorf("%s in %q: npm %v, ours %v", p.V, p.R, *res.Sat[i], got)
			}
		}
	}
	t.Logf("%d ranges, %d pairs compared with npm's semver", len(rs), len(qs))
}

// collect gathers the ranges and versions of the ecosystem data.
func collect(data []byte, ranges, versions map[string]bool) {
	var walk func(k string, v any)
	walk = func(k string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for kk, vv := range v {
				if k == "pins" || k == "compatibility" {
					if s, ok := vv.(string); ok {
						ranges[s] = true
					}
				}
				walk(kk, vv)
			}
		case []any:
			for _, vv := range v {
				walk(k, vv)
			}
		case string:
			switch k {
			case "enginesNode", "compatibilityFw", "peerFw", "kitRange", "peerKit":
				ranges[v] = true
			case "version", "latest", "fw4Min":
				if _, err := Parse(v); err == nil {
					versions[v] = true
				}
			}
		}
	}
	var d any
	if json.Unmarshal(data, &d) == nil {
		walk("", d)
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"^3.0.0-rc.11", ">=4.1.0 || ^3.19.0", "1.2 - 2", "~3.x", "*", "<=3.7", "v1.2.3beta+b"} {
		f.Add(s, "3.5.0-rc.1")
	}
	f.Fuzz(func(t *testing.T, rng, ver string) {
		r, err := ParseRange(rng)
		if err != nil {
			return
		}
		_ = r.Normal()
		r.AdmitsMajor(4)
		r.Subset(r)
		r.Floor()
		if v, err := Parse(ver); err == nil {
			r.Satisfies(v)
		}
		if !r.Intersects(r) {
			// A range that admits nothing does not intersect itself; one
			// that admits a version must.
			if v, ok := r.Floor(); ok && r.Satisfies(v) {
				t.Errorf("%q admits %s but does not intersect itself", rng, v)
			}
		}
	})
}
