package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
)

// The VS Code extension (editors/vscode), packed into a .vsix by vsce, the
// packager VS Code's own documentation names (@vscode/vsce, a
// devDependency of the extension pinned by its package-lock.json). vsce
// packs offline once npm has installed it: its only network step here is
// `npm ci` from the npm registry. The extension's version is the release's.

// vscodeFiles are what the extension's package is made of, besides the
// module's LICENSE (editors/vscode's .vscodeignore leaves the rest out of
// the .vsix; the stage holds nothing else).
var vscodeFiles = []string{"package.json", "package-lock.json", "README.md", ".vscodeignore", "src"}

// packVSCode packs the extension into o.out as fwmigrate-vscode-VERSION.vsix
// and returns its path.
func packVSCode(o options) (string, error) {
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return "", err
	}
	stage, err := os.MkdirTemp(o.out, "stage-vscode-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	src := filepath.Join(o.root, "editors", "vscode")
	for _, name := range vscodeFiles {
		if err := copyTree(filepath.Join(src, name), filepath.Join(stage, name)); err != nil {
			return "", err
		}
	}
	if err := copyTree(filepath.Join(o.root, "LICENSE"), filepath.Join(stage, "LICENSE")); err != nil {
		return "", err
	}
	if err := setManifestVersion(filepath.Join(stage, "package.json"), o.version); err != nil {
		return "", err
	}
	vsix := filepath.Join(o.out, "fwmigrate-vscode-"+o.version+".vsix")
	for _, args := range [][]string{
		// The lock's packages, vsce among them (from npm's cache when it
		// has them: the lock pins their hashes); no install scripts run.
		{"ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"},
		// vsce bundles the production dependencies' node_modules and
		// leaves the devDependencies out.
		{"exec", "--no", "--", "vsce", "package", "--out", vsix},
	} {
		cmd := exec.Command("npm", args...)
		cmd.Dir = stage
		cmd.Stdout, cmd.Stderr = o.log, o.log
		// vsce asks on a terminal when something is missing: nothing to
		// answer here, so that it fails instead of waiting.
		cmd.Stdin = nil
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("npm %v in %s: %w", args, stage, err)
		}
	}
	fmt.Fprintf(o.log, "packed %s\n", vsix)
	return vsix, nil
}

// setManifestVersion sets the "version" of the package.json at path, and
// changes nothing else of its text.
func setManifestVersion(path, ver string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var pj struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	old, _ := json.Marshal(pj.Version)
	new, _ := json.Marshal(ver)
	field := []byte(`"version": ` + string(old))
	if bytes.Count(data, field) != 1 {
		return fmt.Errorf("%s: no single %s to set", path, field)
	}
	return os.WriteFile(path, bytes.Replace(data, field, []byte(`"version": `+string(new)), 1), 0o644)
}

// copyTree copies a file, or a folder and what it holds (the files as
// 0644: none of the extension's is a program); a symlink is refused (the
// extension has none).
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file", path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}
