// Package compat is fwmigrate's knowledge of the framework's configuration:
// every option with its type, defaults per layout, status and rule
// (config-reference.md decides, migration-facts.md fills its gaps,
// options-v3.json and options-v4.json add the remaining names); the version
// model (compatibility versions, flipped defaults, removed options); layout
// detection and path resolution; runtimeConfig environment variables; hooks.
//
// It is data plus small pure functions. It reads a config only through the
// Config interface, so it does not depend on the parser.
package compat

import "strings"

// ValueState says what is known about an option's value.
type ValueState uint8

const (
	Absent  ValueState = iota // not set, and nothing (spread, computed key) could set it
	Static                    // set to a literal; v is its Go value: string, float64, bool, nil, []any, map[string]any
	Dynamic                   // set, or possibly set, to a value only known when the config runs
)

func (s ValueState) String() string {
	switch s {
	case Absent:
		return "absent"
	case Static:
		return "static"
	case Dynamic:
		return "dynamic"
	}
	return "unknown"
}

// Config is a parsed config as compat sees it. path is dotted
// ("experimental.compileTemplate"). For Dynamic, v is nil.
type Config interface {
	Value(path string) (v any, st ValueState)
}

// DynamicValue marks a run-time value inside a MapConfig (a call, an
// identifier, a conditional...). It cannot be called Dynamic: that name is
// the ValueState.
type DynamicValue struct{}

// Spread is a MapConfig key that marks a spread or a computed key in that
// object: any key missing from the map may still be set at run time.
const Spread = "..."

// MapConfig is a Config made of nested maps, for tests and for callers that
// already have plain values. Values are string, float64, bool, nil, []any,
// map[string]any (or MapConfig), and DynamicValue{} anywhere.
type MapConfig map[string]any

// Value implements Config. A value that contains a DynamicValue or a Spread
// anywhere is Dynamic as a whole: Static means fully known.
func (m MapConfig) Value(path string) (any, ValueState) {
	var cur any = map[string]any(m)
	if path != "" {
		for _, seg := range strings.Split(path, ".") {
			var obj map[string]any
			switch c := cur.(type) {
			case DynamicValue:
				return nil, Dynamic
			case map[string]any:
				obj = c
			case MapConfig:
				obj = c
			default:
				return nil, Absent // a leaf has no keys
			}
			v, ok := obj[seg]
			if !ok {
				if _, spread := obj[Spread]; spread {
					return nil, Dynamic
				}
				return nil, Absent
			}
			cur = v
		}
	}
	if hasDynamic(cur) {
		return nil, Dynamic
	}
	return cur, Static
}

func hasDynamic(v any) bool {
	switch c := v.(type) {
	case DynamicValue:
		return true
	case map[string]any:
		return mapHasDynamic(c)
	case MapConfig:
		return mapHasDynamic(c)
	case []any:
		for _, e := range c {
			if hasDynamic(e) {
				return true
			}
		}
	}
	return false
}

func mapHasDynamic(m map[string]any) bool {
	if _, ok := m[Spread]; ok {
		return true
	}
	for _, e := range m {
		if hasDynamic(e) {
			return true
		}
	}
	return false
}
