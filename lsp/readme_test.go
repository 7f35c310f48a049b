package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// README's editor section, run as it is written: the Neovim snippets in
// Neovim, the Helix and Zed commands with sh. Each must start the
// project's node_modules/.bin/fwmigrate, from the project's folder or one
// below it, and the PATH's fwmigrate only when the project has none.

// readmeSection returns the text of README's "### title" section.
func readmeSection(t *testing.T, title string) string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n### "+title+"\n")
	if start < 0 {
		t.Fatalf("README has no section %q", title)
	}
	text = text[start+1:]
	if end := regexp.MustCompile(`\n##+ `).FindStringIndex(text[4:]); end != nil {
		text = text[:end[0]+4]
	}
	return text
}

// codeBlocks returns the fenced blocks of lang in text.
func codeBlocks(text, lang string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?s)```"+lang+"\n(.*?)```").FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// fakeFwmigrate writes a program named fwmigrate into dir that prints
// what it is and its arguments.
func fakeFwmigrate(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "fwmigrate"), "#!/bin/sh\necho \""+name+" $*\"\n")
	if err := os.Chmod(filepath.Join(dir, "fwmigrate"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestReadmeEditorCommands runs the server commands of README's Helix and
// Zed settings (they are one sh script) where the editors run them: in the
// project's root, a monorepo's package, a folder without node_modules.
func TestReadmeEditorCommands(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the commands are sh scripts")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	helix := codeBlocks(readmeSection(t, "Helix"), "toml")
	if len(helix) == 0 {
		t.Fatal("no toml block in README's Helix section")
	}
	m := regexp.MustCompile(`(?m)^command = "sh"\nargs = \["-c", '([^']*)'\]$`).FindStringSubmatch(helix[0])
	if m == nil {
		t.Fatalf("README's Helix server is not `sh -c '...'`:\n%s", helix[0])
	}
	script := m[1]
	zed := codeBlocks(readmeSection(t, "Zed"), "json")
	if len(zed) == 0 {
		t.Fatal("no json block in README's Zed section")
	}
	var settings struct {
		LSP map[string]struct {
			Binary struct {
				Path      string   `json:"path"`
				Arguments []string `json:"arguments"`
			} `json:"binary"`
		} `json:"lsp"`
	}
	if err := json.Unmarshal([]byte(zed[0]), &settings); err != nil {
		t.Fatalf("README's Zed settings: %v", err)
	}
	if b := settings.LSP["fwmigrate"].Binary; b.Path != "sh" || len(b.Arguments) != 2 || b.Arguments[0] != "-c" || b.Arguments[1] != script {
		t.Errorf("README's Zed command is not Helix's: %+v", b)
	}

	root := writeTree(t, map[string]string{
		"mono repo/apps/web/fw.config.ts": "export default defineFwConfig({})\n",
		"lone/fw.config.ts":               "export default defineFwConfig({})\n",
	})
	fakeFwmigrate(t, filepath.Join(root, "mono repo", "node_modules", ".bin"), "project")
	fakeFwmigrate(t, filepath.Join(root, "path"), "path")
	for _, tc := range []struct{ dir, want string }{
		{"mono repo", "project lsp"},
		{"mono repo/apps/web", "project lsp"},
		{"lone", "path lsp"},
	} {
		cmd := exec.Command(sh, "-c", script)
		cmd.Dir = filepath.Join(root, filepath.FromSlash(tc.dir))
		cmd.Env = []string{"PATH=" + filepath.Join(root, "path") + ":/usr/bin:/bin", "PWD=" + cmd.Dir}
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != tc.want {
			t.Errorf("in %s: %q, %v; want %q", tc.dir, out, err, tc.want)
		}
	}
}

// TestReadmeNeovim runs README's Neovim snippets (the helper and the
// snippet for the installed Neovim's version) headless, opens a config of
// a project whose node_modules/.bin/fwmigrate is a build of fwmigrate, and
// checks that this one was started and published the config's findings;
// the PATH's fwmigrate is a decoy that fails.
func TestReadmeNeovim(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fwmigrate and runs Neovim: not under -short")
	}
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim): README's Neovim snippets are not run")
	}
	blocks := codeBlocks(readmeSection(t, "Neovim"), "lua")
	if len(blocks) < 3 || !strings.Contains(blocks[0], "function fwmigrate_cmd") || !strings.Contains(blocks[1], "vim.lsp.start(") || !strings.Contains(blocks[2], "vim.lsp.start_client(") {
		t.Fatalf("README's Neovim section: want the helper, the 0.8 snippet and the 0.7 one, got %d lua blocks", len(blocks))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "fwmigrate")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/fwmigrate/fwmigrate/cmd/fwmigrate").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := writeTree(t, map[string]string{
		"fw.config.ts": "export default defineFwConfig({\n  dir: { static: 'public' },\n})\n",
		"package.json": `{ "dependencies": { "fw": "^3.15.0" } }`,
	})
	if err := os.MkdirAll(filepath.Join(root, "node_modules", ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(root, "node_modules", ".bin", "fwmigrate")
	if err := os.Symlink(bin, local); err != nil {
		t.Fatal(err)
	}
	decoy := filepath.Join(tmp, "path")
	fakeFwmigrate(t, decoy, "decoy")

	// check waits for the config's diagnostics and writes the command of
	// the client that published them.
	const check = `
local out = os.getenv('OUT')
if os.getenv('NEED') == '0.8' and vim.fn.has('nvim-0.8') == 0 then
  vim.fn.writefile({ 'SKIP' }, out)
  vim.cmd('qa!')
end
vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('FILE')))
local buf = vim.api.nvim_get_current_buf()
local lines = {}
if not vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
  table.insert(lines, 'ERROR no diagnostics within 30 s')
end
for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
  table.insert(lines, 'cmd ' .. table.concat(c.config.cmd, ' '))
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(lines, 'diagnostic ' .. tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)))
end
vim.fn.writefile(lines, out)
vim.cmd('qa!')
`
	for i, need := range []string{"0.8", "0.7"} {
		script := filepath.Join(tmp, "init-"+need+".lua")
		writeFile(t, script, blocks[0]+"\n"+blocks[1+i]+"\n"+check)
		out := filepath.Join(tmp, "out-"+need)
		// A script that fails before its own qa! ends at cquit: exit status 3.
		cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script, "-c", "cquit 3")
		cmd.Dir = tmp
		cmd.Env = []string{"PATH=" + decoy + ":/usr/bin:/bin", "HOME=" + tmp, "XDG_STATE_HOME=" + tmp, "XDG_DATA_HOME=" + tmp,
			"OUT=" + out, "FILE=" + filepath.Join(root, "fw.config.ts"), "NEED=" + need}
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("nvim with the %s snippet: %v\n%s", need, err, b)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		text := string(got)
		if strings.TrimSpace(text) == "SKIP" {
			t.Logf("the snippet for Neovim %s is not run: the installed Neovim is older", need)
			continue
		}
		t.Logf("Neovim with README's %s snippet:\n%s", need, text)
		if !strings.Contains(text, "cmd "+local+" lsp\n") || !strings.Contains(text, "diagnostic FW107\n") || strings.Contains(text, "ERROR") {
			t.Errorf("the %s snippet: want the project's fwmigrate (%s) and FW107, got:\n%s", need, local, text)
		}
	}
}
