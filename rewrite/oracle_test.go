package rewrite_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// oracleEsbuild is the npm esbuild the oracle strips types with: the
// version of the Go module, so that both agree on the syntax.
const oracleEsbuild = "0.28.2"

// TestSemanticOracle evaluates configs with node before and after a
// rewrite and asserts that the only differences are the intended ones: the
// before value, with the applied ops simulated on it (moves merging objects
// and concatenating arrays, parents left empty removed), must equal the
// after value. It covers the engine cases and the corpus with the
// migration ops. Skipped without node, or when esbuild cannot be
// installed from npm, and with -short, as every node oracle is (the house
// rule; it took 4 s of the short run): TestEngine, TestCorpusMigration and
// TestCorpusEveryProperty check the same rewrites without node.
func TestSemanticOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("a node oracle: not with -short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	esbuildDir := installOracleEsbuild(t)

	type pair struct {
		name   string
		before *ast.File
		after  []byte
		ops    []rewrite.Op
	}
	var pairs []pair
	engine, _ := filepath.Glob("testdata/engine/*.txtar")
	for _, file := range engine {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var src []byte
		var name string
		var groups [][]rewrite.Op
		for _, f := range ar.Files {
			if strings.HasPrefix(f.Name, "in.") {
				src, name = f.Data, "fw.config."+strings.TrimPrefix(f.Name, "in.")
			}
			if f.Name == "ops" {
				if groups, err = parseOps(string(f.Data)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if hasReplace(groups) {
			continue // a replace's intent is its text: nothing to simulate
		}
		f, err := ast.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		res, err := rewrite.ApplyGroups(f, groups)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair{filepath.Base(file), f, res.Src, res.Applied})
	}
	for _, c := range corpus(t) {
		f, err := ast.Parse(c.file, c.src)
		if err != nil {
			t.Fatal(err)
		}
		res, err := rewrite.Apply(f, migration)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair{c.name, f, res.Src, res.Applied})
	}

	dir := t.TempDir()
	var tree []txtar.File
	var files []string
	for i, p := range pairs {
		for j, src := range [][]byte{p.before.Src, p.after} {
			name := fmt.Sprintf("%d-%d/%s", i, j, filepath.Base(p.before.Name))
			tree = append(tree, txtar.File{Name: name, Data: src})
			files = append(files, filepath.Join(dir, filepath.FromSlash(name)))
		}
	}
	b, _ := json.Marshal(files)
	tree = append(tree, txtar.File{Name: "manifest.json", Data: b})
	testtree.Files(t, dir, tree)
	manifest := filepath.Join(dir, "manifest.json")
	script, _ := filepath.Abs("testdata/oracle/eval.cjs")
	cmd := exec.Command(node, script, esbuildDir, manifest)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var results []struct {
		Value any    `json:"value"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(files) {
		t.Fatalf("node output: %v (%d results for %d files)", err, len(results), len(files))
	}
	compared := 0
	for i, p := range pairs {
		before, after := results[2*i], results[2*i+1]
		if before.Error != "" {
			if after.Error != before.Error {
				t.Errorf("%s: the original fails to evaluate (%s) but the rewrite gives %q", p.name, before.Error, after.Error)
			}
			t.Logf("%s: not evaluated: %s", p.name, before.Error)
			continue
		}
		if after.Error != "" {
			t.Errorf("%s: the rewrite fails to evaluate: %s", p.name, after.Error)
			continue
		}
		want, err := simulate(p.before, before.Value, p.ops)
		if err != nil {
			t.Errorf("%s: %v", p.name, err)
			continue
		}
		if !reflect.DeepEqual(want, after.Value) {
			wj, _ := json.MarshalIndent(want, "", "  ")
			gj, _ := json.MarshalIndent(after.Value, "", "  ")
			t.Errorf("%s: the rewritten config evaluates to something else than intended\n%s", p.name, rewrite.Diff("value.json", wj, gj))
		}
		compared++
	}
	t.Logf("%d of %d configs compared", compared, len(pairs))
	if compared < len(pairs)/2 {
		t.Errorf("only %d of %d configs could be evaluated", compared, len(pairs))
	}
}

func hasReplace(groups [][]rewrite.Op) bool {
	for _, g := range groups {
		for _, op := range g {
			if op.Kind == rewrite.OpReplace {
				return true
			}
		}
	}
	return false
}

// installOracleEsbuild installs esbuild from npm into a cache directory
// (once) and returns that directory.
func installOracleEsbuild(t *testing.T) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "fwmigrate-oracle", "esbuild-"+oracleEsbuild)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "esbuild", "package.json")); err == nil {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm not installed: cannot install esbuild for the oracle")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(npm, "install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "esbuild@"+oracleEsbuild)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install esbuild@%s: %v\n%s", oracleEsbuild, err, out)
	}
	return dir
}

// simulate applies ops to an evaluated config the way they are meant to
// change it. Whether a parent is left empty is decided on the literal, as
// the engine does.
func simulate(f *ast.File, v any, ops []rewrite.Op) (any, error) {
	root, ok := deepCopy(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the config evaluates to %T, not an object", v)
	}
	for _, op := range ops {
		switch op.Kind {
		case rewrite.OpSet:
			n, _ := rewrite.Normalize(op.Value)
			setPath(root, op.Path, n)
		case rewrite.OpDelete:
			if _, ok := getPath(root, op.Path); ok {
				deletePath(f, root, op.Path)
			}
		case rewrite.OpMove, rewrite.OpRename:
			if len(op.Path) == len(op.To) && hasPrefix(op.Path, op.To) {
				continue
			}
			val, ok := getPath(root, op.Path)
			if !ok {
				continue
			}
			if cur, ok := getPath(root, op.To); ok {
				val = merge(cur, val)
			}
			setPath(root, op.To, val)
			deletePath(f, root, op.Path)
		case rewrite.OpReplace:
			return nil, fmt.Errorf("cannot simulate a replace")
		}
	}
	return root, nil
}

func getPath(root map[string]any, p ast.Path) (any, bool) {
	var cur any = root
	for _, k := range p {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func setPath(root map[string]any, p ast.Path, v any) {
	m := root
	for _, k := range p[:len(p)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[p[len(p)-1]] = v
}

// deletePath deletes p and the parents it leaves empty, unless their
// literal object has a spread or computed key (which the engine counts as
// content even when it adds nothing at run time).
func deletePath(f *ast.File, root map[string]any, p ast.Path) {
	k := len(p)
	for k > 1 {
		m, _ := getPath(root, p[:k-1])
		if mm, isMap := m.(map[string]any); !isMap || len(mm) != 1 {
			break
		}
		if parent := rewrite.Lookup(f, p[:k-1]); parent != nil {
			if o, ok := ast.Unwrap(parent.Value).(*ast.Object); ok && dynamicIn(o) != nil {
				break
			}
		}
		k--
	}
	if m, ok := getPath(root, p[:k-1]); ok {
		if mm, ok := m.(map[string]any); ok {
			delete(mm, p[k-1])
		}
	}
}

// merge is what a move onto an existing value makes: objects merged key by
// key, arrays concatenated (existing items first), equal values kept.
func merge(dst, src any) any {
	dm, dok := dst.(map[string]any)
	sm, sok := src.(map[string]any)
	if dok && sok {
		for k, v := range sm {
			if cur, ok := dm[k]; ok {
				dm[k] = merge(cur, v)
			} else {
				dm[k] = v
			}
		}
		return dm
	}
	da, dok := dst.([]any)
	sa, sok := src.([]any)
	if dok && sok {
		return append(append([]any(nil), da...), sa...)
	}
	return src
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = deepCopy(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = deepCopy(x)
		}
		return out
	}
	return v
}
