// Command realapps rebuilds and measures the real applications the code
// rules are checked on (issue 21): public, permissively licensed apps at
// their last commit on framework major 3, listed in apps.tsv. Their code is
// never committed: `build` extracts each from a bare mirror (fetched with
// the search tool's fetch) and translates the framework's names to the
// neutral ones by the corpus's rules (../shared/corpus/MANIFEST.md);
// `measure` checks them with fwmigrate and compares the code reader with
// esbuild's acceptance of the same scripts.
//
//	go run ./tools/realapps build -mirror /work/.mirror -out $TMP/realapps
//	go run ./tools/realapps measure -dir $TMP/realapps
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

type app struct {
	name, repo, commit, license, sub, note string
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: realapps build -mirror DIR -out DIR | measure -dir DIR [-fwmigrate BIN]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	mirror := fs.String("mirror", "/work/.mirror", "folder of the bare mirrors (owner+name/repo)")
	out := fs.String("out", filepath.Join(os.TempDir(), "realapps"), "folder the translated apps are written to")
	dir := fs.String("dir", filepath.Join(os.TempDir(), "realapps"), "folder of the translated apps")
	bin := fs.String("fwmigrate", "", "the fwmigrate binary (built from this checkout when empty)")
	list := fs.String("apps", "tools/realapps/apps.tsv", "the list of apps")
	fs.Parse(os.Args[2:])
	apps, err := readApps(*list)
	if err != nil {
		fatal(err)
	}
	switch os.Args[1] {
	case "build":
		for _, a := range apps {
			n, err := build(a, *mirror, *out)
			if err != nil {
				fatal(fmt.Errorf("%s: %w", a.name, err))
			}
			fmt.Printf("%s: %d files from %s@%s\n", a.name, n, a.repo, a.commit)
		}
	case "measure":
		if err := measure(apps, *dir, *bin); err != nil {
			fatal(err)
		}
	default:
		fatal(fmt.Errorf("unknown command %q", os.Args[1]))
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "realapps:", err)
	os.Exit(1)
}

func readApps(path string) ([]app, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []app
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 6 {
			return nil, fmt.Errorf("%s: %q: want 6 tab-separated columns", path, line)
		}
		out = append(out, app{c[0], c[1], c[2], c[3], c[4], c[5]})
	}
	return out, sc.Err()
}

// skipped are folders a build or a package manager writes.
var skipped = map[string]bool{"node_modules": true, ".nuxt": true, ".output": true, "dist": true, ".git": true}

// build extracts a's commit from its mirror into out/<name>, translated.
// A mirror may lack its largest blobs: those files are left out.
func build(a app, mirror, out string) (int, error) {
	gitDir := filepath.Join(mirror, strings.Replace(a.repo, "/", "+", 1), "repo")
	git := func(args ...string) *exec.Cmd {
		return exec.Command("git", append([]string{"--git-dir=" + gitDir, "-c", "core.fsmonitor=false"}, args...)...)
	}
	list, err := git("ls-tree", "-r", "-z", a.commit, "--", a.sub).Output()
	if err != nil {
		return 0, fmt.Errorf("git ls-tree: %w (fetch %s first)", err, a.repo)
	}
	type entry struct{ path, sha string }
	var entries []entry
	for _, rec := range strings.Split(string(list), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || f[0] == "120000" {
			continue // folders are made as needed; links and submodules are left out
		}
		rel := path
		if a.sub != "." {
			rel = strings.TrimPrefix(path, strings.TrimSuffix(a.sub, "/")+"/")
		}
		if !skip(rel) {
			entries = append(entries, entry{rel, f[2]})
		}
	}
	dst := filepath.Join(out, a.name)
	if err := os.RemoveAll(dst); err != nil {
		return 0, err
	}
	cmd := git("cat-file", "--batch")
	var in bytes.Buffer
	for _, e := range entries {
		in.WriteString(e.sha + "\n")
	}
	cmd.Stdin = &in
	outp, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("git cat-file: %w", err)
	}
	r := bufio.NewReader(bytes.NewReader(outp))
	n := 0
	for _, e := range entries {
		head, err := r.ReadString('\n')
		if err != nil {
			return n, err
		}
		f := strings.Fields(head)
		if len(f) == 2 && f[1] == "missing" {
			continue
		}
		var size int
		if len(f) != 3 {
			return n, fmt.Errorf("git cat-file: %q", head)
		}
		fmt.Sscanf(f[2], "%d", &size)
		src := make([]byte, size+1)
		if _, err := io.ReadFull(r, src); err != nil {
			return n, err
		}
		rel, text := translate(e.path, src[:size])
		p := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return n, err
		}
		if err := os.WriteFile(p, text, 0o644); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func skip(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if skipped[part] || strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// The translation (../shared/corpus/MANIFEST.md, "Translation rules
// applied"): third-party names and URLs are kept, the framework's package
// and scope, its identifiers, env prefix and build folder are renamed, and
// the config's top-level keys of other tools get their neutral names.
var (
	kept = regexp.MustCompile(`https?://[^\s'"` + "`" + `)>]+|\b[\w.-]*nuxt(?:js|hq|-themes|hub)?\.(?:com|org|dev)\b|@nuxtjs/[\w.-]+|@nuxthq/[\w.-]+|@nuxt-themes/[\w.-]+|@nuxthub/[\w.-]+|@[\w.-]+/nuxt\b|[\w.-]+-nuxt(?:-[\w.-]+)?\b|\b[\w.-]+/nuxt\b`)
	pkg  = regexp.MustCompile(`(['"])nuxt((?:/[\w/-]*)?)(['"])`)
	pkgN = regexp.MustCompile(`(['"])nuxt-([\w.-]+)(['"])`)
	word = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
	top  = regexp.MustCompile(`(?m)^(  |\t)(nitro|vite|webpack|rspack|vue|esbuild|oxc|postcss|unhead)(\s*[:({,])`)
	nuxi = regexp.MustCompile(`\bnuxi\b`)
)

var topKeys = map[string]string{"nitro": "engine", "vite": "bundlerA", "webpack": "bundlerB", "rspack": "bundlerC", "vue": "ui", "esbuild": "transpilerA", "oxc": "transpilerB", "postcss": "cssproc", "unhead": "headmgr"}

var textExt = map[string]bool{".vue": true, ".ts": true, ".tsx": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".mts": true, ".cts": true, ".json": true, ".html": true, ".css": true, ".scss": true, ".md": true, ".yml": true, ".yaml": true}

func translate(rel string, src []byte) (string, []byte) {
	base := filepath.Base(rel)
	config := false
	if strings.HasPrefix(base, "nuxt.config.") {
		rel = filepath.Join(filepath.Dir(rel), "fw"+strings.TrimPrefix(base, "nuxt"))
		config = true
	}
	if !textExt[filepath.Ext(base)] && !strings.HasPrefix(base, ".env") {
		return rel, src
	}
	if bytes.IndexByte(src, 0) >= 0 {
		return rel, src
	}
	s := string(src)
	// Protect what stays, translate the rest, restore.
	var hold []string
	s = kept.ReplaceAllStringFunc(s, func(m string) string {
		hold = append(hold, m)
		return fmt.Sprintf("\x00%d\x00", len(hold)-1)
	})
	s = strings.ReplaceAll(s, "@nuxt/", "@fw/")
	s = pkg.ReplaceAllString(s, "${1}fw${2}${3}")
	s = pkgN.ReplaceAllString(s, "${1}fw-${2}${3}")
	for _, r := range [][2]string{{"NUXT_", "FW_"}, {"__NUXT__", "__FW__"}, {".nuxt", ".fw"}, {"_nuxt/", "_fw/"}, {"__nuxt", "__fw"}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	s = nuxi.ReplaceAllString(s, "fwi")
	s = word.ReplaceAllStringFunc(s, func(w string) string {
		if !strings.Contains(strings.ToLower(w), "nuxt") {
			return w
		}
		return strings.NewReplacer("nuxt", "fw", "Nuxt", "Fw", "NUXT", "FW").Replace(w)
	})
	if config {
		s = top.ReplaceAllStringFunc(s, func(m string) string {
			sub := top.FindStringSubmatch(m)
			return sub[1] + topKeys[sub[2]] + sub[3]
		})
	}
	s = regexp.MustCompile("\x00([0-9]+)\x00").ReplaceAllStringFunc(s, func(m string) string {
		var i int
		fmt.Sscanf(strings.Trim(m, "\x00"), "%d", &i)
		return hold[i]
	})
	return rel, []byte(s)
}

// measure checks each app and compares the code reader with esbuild.
func measure(apps []app, dir, bin string) error {
	if bin == "" {
		bin = filepath.Join(os.TempDir(), "realapps-fwmigrate")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/fwmigrate")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
	}
	fmt.Println("| app | code files | esbuild accepts | not read (FW908) | of them esbuild accepts | findings FW6xx | by rule |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- |")
	var total [5]int
	for _, a := range apps {
		root := filepath.Join(dir, a.name)
		files, accepted, err := oracle(root)
		if err != nil {
			return fmt.Errorf("%s: %w (run build first)", a.name, err)
		}
		cmd := exec.Command(bin, "check", "--format=json", "--fail-on=never", "--isolated", ".")
		cmd.Dir = root
		var stdout bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: fwmigrate check: %w", a.name, err)
		}
		var rep struct {
			Diagnostics []struct{ Code, File string } `json:"diagnostics"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			return fmt.Errorf("%s: %w", a.name, err)
		}
		unread, unreadOK, sites := map[string]bool{}, 0, 0
		byRule := map[string]int{}
		for _, d := range rep.Diagnostics {
			switch {
			case d.Code == "FW908":
				if !unread[d.File] {
					unread[d.File] = true
					if accepted[filepath.Clean(d.File)] {
						unreadOK++
						fmt.Fprintf(os.Stderr, "%s: %s: esbuild accepts it, the reader does not\n", a.name, d.File)
					}
				}
			case strings.HasPrefix(d.Code, "FW6"):
				sites++
				byRule[d.Code]++
			}
		}
		var rules []string
		for c, n := range byRule {
			rules = append(rules, fmt.Sprintf("%s×%d", c, n))
		}
		sort.Strings(rules)
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %s |\n", a.name, files, len(accepted), len(unread), unreadOK, sites, strings.Join(rules, " "))
		for i, n := range []int{files, len(accepted), len(unread), unreadOK, sites} {
			total[i] += n
		}
	}
	fmt.Printf("| all | %d | %d | %d | %d | %d | |\n", total[0], total[1], total[2], total[3], total[4])
	return nil
}

var scriptBlock = regexp.MustCompile(`(?s)<script\b([^>]*)>(.*?)</script>`)

// oracle counts the code files of root (the extensions the code rules
// read, outside the folders a build writes) and those whose scripts esbuild
// accepts (a .vue file's <script> blocks; its template is not judged).
func oracle(root string) (files int, accepted map[string]bool, err error) {
	accepted = map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (skipped[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		loader, ok := map[string]api.Loader{".ts": api.LoaderTS, ".mts": api.LoaderTS, ".cts": api.LoaderTS, ".tsx": api.LoaderTSX, ".js": api.LoaderJS, ".mjs": api.LoaderJS, ".cjs": api.LoaderJS, ".jsx": api.LoaderJSX, ".vue": api.LoaderTS}[ext]
		if !ok || strings.HasSuffix(p, ".d.ts") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		parts := []string{string(src)}
		if ext == ".vue" {
			parts = nil
			for _, m := range scriptBlock.FindAllStringSubmatch(string(src), -1) {
				parts = append(parts, m[2])
				if !strings.Contains(m[1], "ts") {
					loader = api.LoaderJS
				}
			}
		}
		for _, part := range parts {
			if r := api.Transform(part, api.TransformOptions{Loader: loader}); len(r.Errors) > 0 {
				return nil
			}
		}
		rel, _ := filepath.Rel(root, p)
		accepted[rel] = true
		return nil
	})
	return files, accepted, err
}
