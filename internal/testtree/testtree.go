// Package testtree writes the project trees of tests to disk: those of
// txtar fixtures (the corpus archives, rule and apply fixtures, move
// trees), in which a file named .keep, or a name ending in "/", stands for
// its directory, and generated ones (LayoutB, the large project of the
// move's benchmarks and apply's crash tests).
package testtree

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Write writes the files of ar whose names start with prefix under dir,
// with the prefix removed ("" writes every file), as Files does. It returns
// the data written, by slash-separated name (prefix removed, directories
// left out). Any error fails the test.
func Write(t testing.TB, dir string, ar *txtar.Archive, prefix string) map[string][]byte {
	t.Helper()
	return Files(t, dir, Under(ar, prefix))
}

// Under returns the files of ar whose names start with prefix, with the
// prefix removed.
func Under(ar *txtar.Archive, prefix string) []txtar.File {
	var files []txtar.File
	for _, f := range ar.Files {
		if name, ok := strings.CutPrefix(f.Name, prefix); ok {
			files = append(files, txtar.File{Name: name, Data: f.Data})
		}
	}
	return files
}

// Files writes files under dir, each at its slash-separated name: a name
// that ends in "/", or a file named .keep, only makes its directory.
// It returns the data written by name (directories left out). Any error
// fails the test.
func Files(t testing.TB, dir string, files []txtar.File) map[string][]byte {
	t.Helper()
	written := map[string][]byte{}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if strings.HasSuffix(f.Name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if filepath.Base(p) == ".keep" {
			continue
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		written[f.Name] = f.Data
	}
	return written
}

// Map writes a tree given inline in a test, as Files does: file name
// (slash-separated, relative to dir) to text, written in name order.
func Map(t testing.TB, dir string, files map[string]string) map[string][]byte {
	t.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	list := make([]txtar.File, len(names))
	for i, name := range names {
		list[i] = txtar.File{Name: name, Data: []byte(files[name])}
	}
	return Files(t, dir, list)
}

// WriteFile parses the archive file and writes it as Write does.
func WriteFile(t testing.TB, dir, file, prefix string) map[string][]byte {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return Write(t, dir, ar, prefix)
}

// Corpus writes every archive matching glob (the shared corpus:
// testdata/corpus/*.txtar) to its own directory under dir, named after the
// archive without .txtar, and returns the archive names in order with the
// config files (fw.config.*) each holds.
func Corpus(t testing.TB, dir, glob string) (names []string, configs map[string][]string) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus at %s: %v", glob, err)
	}
	configs = map[string][]string{}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		names = append(names, name)
		for f := range WriteFile(t, filepath.Join(dir, name), file, "") {
			if strings.HasPrefix(filepath.Base(f), "fw.config.") {
				configs[name] = append(configs[name], f)
			}
		}
		sort.Strings(configs[name])
	}
	return names, configs
}
