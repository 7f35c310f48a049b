package project

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/joho/godotenv"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/ignore"
)

// EnvFile is one parsed .env file.
type EnvFile struct {
	Name    string // base name: .env, .env.production, ...
	Path    string // absolute
	Display string // as shown to the user
	Src     []byte
	Vars    []*EnvVar
	// Err is set when the file could not be read or parsed; Vars then holds
	// what could be recovered line by line. Unreadable says the file could
	// not be read at all, or is binary (Src is then nil); ErrSpan is where
	// a parse error lies.
	Err        error
	Unreadable bool
	ErrSpan    ast.Span
	// InRepo reports that the file is inside a git repository (a .git
	// entry at or above its directory), and GitIgnored that the
	// repository's .gitignore files, from its top down to the file's
	// directory, exclude it. Git itself is not asked: a file in a
	// repository that its .gitignore files do not exclude is committed, or
	// will be with the next `git add .`; one that is excluded may still
	// have been added with --force, and .git/info/exclude and the global
	// excludes file are not read.
	InRepo, GitIgnored bool
}

// EnvVar is one assignment in a .env file.
type EnvVar struct {
	Name  string
	Value string
	Line  int      // 1-based
	Span  ast.Span // the name's bytes in Src
}

// loadEnvFiles reads every .env* file directly in root.
func (l *Loader) loadEnvFiles(root, displayDir string) []*EnvFile {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []*EnvFile
	var git *ignore.Git // the .gitignore rules in force in root, read for the first .env file
	inRepo, rel := false, ""
	for _, e := range entries {
		name := e.Name()
		if name != ".env" && !strings.HasPrefix(name, ".env.") {
			continue
		}
		if e.IsDir() {
			continue
		}
		if git == nil {
			top := ignore.RepoTop(root)
			_, err := os.Lstat(filepath.Join(top, ".git"))
			inRepo = err == nil
			git, rel = ignore.GitDown(top, root)
			if git == nil {
				git = &ignore.Git{}
			}
		}
		// Anything else is read: a symlink (a monorepo's shared .env)
		// through to its target, and a FIFO or device is refused by the
		// reader with an error the check reports.
		ef := &EnvFile{Name: name, Path: filepath.Join(root, name), Display: filepath.Join(displayDir, name), InRepo: inRepo}
		ef.GitIgnored = inRepo && git.Ignored(path.Join(rel, name), false)
		ef.Src, ef.Err = l.read(ef.Path)
		if ef.Err == nil {
			if err := binaryErr(ef.Src); err != nil {
				ef.Err, ef.Src = fmt.Errorf("binary file, not a .env file: %s", strings.TrimPrefix(err.Error(), "binary file, not a config: ")), nil
			}
		}
		if ef.Err != nil {
			ef.Unreadable = true
		} else {
			ef.Vars, ef.ErrSpan, ef.Err = parseEnv(ef.Src)
		}
		out = append(out, ef)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// parseEnv finds each assignment's name and position line by line, and takes
// the values from godotenv, which knows the quoting and expansion rules. A
// parse error comes with the span of the line it is on; its message shows
// a short escaped excerpt of that line, never the rest of the file.
func parseEnv(src []byte) ([]*EnvVar, ast.Span, error) {
	values, perr := godotenv.UnmarshalBytes(src)
	var vars []*EnvVar
	off := 0
	for lineNo := 1; off < len(src); lineNo++ {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := src[off:end]
		i := 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if bytes.HasPrefix(line[i:], []byte("export ")) {
			i += len("export ")
			for i < len(line) && line[i] == ' ' {
				i++
			}
		}
		j := i
		for j < len(line) && isEnvNameByte(line[j]) {
			j++
		}
		k := j
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if j > i && k < len(line) && (line[k] == '=' || line[k] == ':') {
			name := string(line[i:j])
			vars = append(vars, &EnvVar{
				Name:  name,
				Value: values[name],
				Line:  lineNo,
				Span:  ast.Span{Start: off + i, End: off + j},
			})
		}
		off = end + 1
		// A quoted value may span lines; godotenv handles the value, and a
		// continuation line never starts with NAME= in a valid file.
	}
	if perr != nil {
		span, msg := envErrorAt(src, perr.Error())
		return vars, span, errors.New("parse: " + msg)
	}
	return vars, ast.Span{}, nil
}

// envErrorAt rewrites godotenv's message, which ends in `near "<the rest
// of the file>"`, to end in a short excerpt of the line the error is on,
// and returns where that is.
func envErrorAt(src []byte, msg string) (ast.Span, string) {
	head, quoted, ok := strings.Cut(msg, " near ")
	if !ok {
		return ast.Span{}, Excerpt(msg)
	}
	rest, err := strconv.Unquote(quoted)
	if err != nil || len(rest) > len(src) || !bytes.HasSuffix(src, []byte(rest)) {
		return ast.Span{}, Excerpt(head)
	}
	at := len(src) - len(rest)
	end := at
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	return ast.Span{Start: at, End: at}, head + " near " + Excerpt(string(src[at:end]))
}

func isEnvNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
