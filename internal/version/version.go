// Package version holds fwmigrate's version. Its one source is the file
// VERSION beside this file, embedded at compile time, so that every way of
// building reports it: go build, go install, go run, go test and the release
// program, which also writes it into every npm package.json.
package version

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
)

//go:embed VERSION
var file string

// override, when set at link time, replaces the file's version:
//
//	go build -ldflags "-X github.com/fwmigrate/fwmigrate/internal/version.override=1.2.3"
//
// The release program sets it only for a --version that differs from the
// file (test releases); a release is made from the file.
var override string

// OverrideSymbol is the -X name of override. The linker ignores -X for a
// symbol that does not exist, so the release program takes the name from
// here rather than spelling it itself.
const OverrideSymbol = "github.com/fwmigrate/fwmigrate/internal/version.override"

// String returns fwmigrate's version, a semantic version without a leading
// "v" ("0.1.0"), the form npm uses.
func String() string {
	if override != "" {
		return override
	}
	return strings.TrimSpace(file)
}

// semverRE is the regular expression of semver.org (2.0.0), which npm
// follows: MAJOR.MINOR.PATCH, an optional pre-release and build metadata.
// It is compiled at the first Check: every fwmigrate process links this
// package for String, and compiling it at init cost every run (a `check`
// or a testscript line) about 0.3 ms.
var semverRE = lazyregexp.New(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// Check reports whether v can be a release version: a semantic version
// without a "v" prefix, as npm publishes it.
func Check(v string) error {
	if !semverRE().MatchString(v) {
		return fmt.Errorf("version %q is not a semantic version like 1.2.3 or 1.2.3-rc.1 (without a leading v)", v)
	}
	return nil
}
