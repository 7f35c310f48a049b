package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
)

// How the rules write values in their messages: one renderer, jsLiteral,
// and the short forms built on it.

// jsLiteral renders a static value as it would be written in a config:
// strings single-quoted, numbers without a trailing .0.
func jsLiteral(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "'" + strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), "'", `\'`) + "'"
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = jsLiteral(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		return "{...}"
	}
	return fmt.Sprint(v)
}

// quote renders a static value for a message: scalars as jsLiteral writes
// them, arrays and objects by their kind.
func quote(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case string, nil, bool, float64, int:
		return jsLiteral(v)
	}
	return "a value"
}

// describe names a static value's kind and value for a message: "the string
// 'false'", "the number 3000", "an object".
func describe(v any) string {
	switch v.(type) {
	case string:
		return "the string " + quote(v)
	case float64:
		return "the number " + quote(v)
	case bool:
		return "the boolean " + quote(v)
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a value of another type"
}

// defaultWords renders a knowledge-base default for a message: the value
// as a literal, or its note when it is not a plain value.
func defaultWords(d compat.Default) string {
	if d.Set {
		return "`" + jsLiteral(d.Value) + "`"
	}
	if d.Note != "" {
		return d.Note
	}
	return "no value"
}

// ticks renders names as a list of `name`s.
func ticks(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	if len(q) > 1 {
		return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	}
	return strings.Join(q, "")
}
