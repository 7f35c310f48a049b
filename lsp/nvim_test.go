package lsp_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
)

// TestNeovim is the smoke test with a real client: Neovim's built-in LSP
// client (0.7, Debian's neovim package; .ci/run installs it where it can)
// opens examples/shop/fw.config.ts, headless, and prints the diagnostics
// it received and the code actions of FW107. They must be check's, at
// check's positions.
func TestNeovim(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fwmigrate and runs Neovim: not under -short")
	}
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim): the smoke test with a real client is skipped")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "fwmigrate")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/fwmigrate/fwmigrate/cmd/fwmigrate")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cfg, err := filepath.Abs("../examples/shop/fw.config.ts")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out.txt")
	script, _ := filepath.Abs("testdata/nvim.lua")
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "FWMIGRATE="+bin, "FILE="+cfg, "OUT="+out, "HOME="+tmp, "XDG_STATE_HOME="+tmp, "XDG_DATA_HOME="+tmp)
	cmd.Dir = tmp
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Neovim received:\n%s", got)

	// What check reports on the config, at its byte columns.
	res, err := settings.NewFinder(settings.Flags{}).For(filepath.Dir(cfg))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, d := range rules.Check(project.LoadProject(cfg, cfg), res.Options(nil)) {
		if d.File == cfg {
			want[fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Code)] = true
		}
	}
	if len(want) == 0 {
		t.Fatal("check finds nothing in examples/shop: the smoke test proves nothing")
	}
	seen := map[string]bool{}
	text := string(got)
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if strings.HasPrefix(line, "ERROR") {
			t.Fatal(line)
		}
		if f := strings.Fields(line); len(f) >= 2 && !strings.HasPrefix(line, "action:") {
			seen[f[0]+" "+f[1]] = true
		}
	}
	for w := range want {
		if !seen[w] {
			t.Errorf("Neovim lacks %s", w)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("Neovim has %d diagnostics, check %d", len(seen), len(want))
	}
	if !strings.Contains(text, "action: Rename `dir.static` to `dir.public` (FW107) [preferred]") {
		t.Errorf("no preferred FW107 fix among the actions")
	}
}
