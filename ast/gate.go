package ast

import "github.com/evanw/esbuild/pkg/api"

// ValidateScript runs esbuild's parser on src[start:end], a script inside
// a larger file (a .vue file's script block), with loader, and returns its
// first error as a *SyntaxError positioned in src.
func ValidateScript(filename string, src []byte, start, end int, loader api.Loader) error {
	res := api.Transform(string(src[start:end]), api.TransformOptions{Loader: loader, Sourcefile: filename, LogLevel: api.LogLevelSilent})
	if len(res.Errors) == 0 {
		return nil
	}
	e := &SyntaxError{File: filename, Text: res.Errors[0].Text, Messages: res.Errors, Offset: start}
	if loc := res.Errors[0].Location; loc != nil {
		e.Offset = start + esbuildOffset(src[start:end], loc.Line, loc.Column)
	}
	pos := NewLines(src).Position(e.Offset)
	e.Line, e.Column = pos.Line, pos.Column
	return e
}
