// Package rewrite edits config files on their original bytes.
//
// Rules describe fixes as Ops: declarative operations on option paths. This
// package turns them into byte edits that follow the file's style, applies
// them (go-udiff rejects overlapping edits), and proves the result: the new
// text must pass esbuild's gate, parse with ast, and hold the intended values
// at the intended paths. It writes nothing to disk: apply writes the new
// texts through package txn.
package rewrite

import "github.com/fwmigrate/fwmigrate/ast"

// OpKind is what an Op does.
type OpKind uint8

const (
	// OpSet sets Path to Value, creating missing parent objects; an existing
	// value at Path is replaced (its comments kept).
	OpSet OpKind = iota
	// OpDelete deletes the property at Path with its comments and comma, and
	// deletes the parents the deletion leaves empty.
	OpDelete
	// OpMove moves the property at Path to To, keeping its comments: an
	// object value is merged into an existing object at To, an array value
	// is concatenated after an existing array at To (existing items first);
	// any other existing value at To makes the op fail.
	OpMove
	// OpRename renames the key of the property at Path to the last segment
	// of To; the parent must be the same.
	OpRename
	// OpReplace replaces the bytes of Span with Text: the fix of a rule
	// that edits inside a value (a string literal's contents, one array
	// element). Span must lie inside the config.
	OpReplace
)

var opKindNames = [...]string{"set", "delete", "move", "rename", "replace"}

func (k OpKind) String() string {
	if int(k) < len(opKindNames) {
		return opKindNames[k]
	}
	return "unknown"
}

// Op is one declarative change to a config file.
type Op struct {
	Kind OpKind
	Path ast.Path
	To   ast.Path
	// Value is what OpSet writes: string, float64, int, bool, nil, []any,
	// or an ordered object (Object). It is rendered in the file's style.
	Value any
	// Span and Text are OpReplace's byte range and its new text.
	Span ast.Span
	Text string
}

// Object is an object value for OpSet whose keys keep their order.
type Object []KV

// KV is one key and value of an Object.
type KV struct {
	Key   string
	Value any
}
