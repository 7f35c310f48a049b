package compat

// Environment overrides (migration facts §12): a config may hold, at its
// top level, objects that are configs merged only in one environment:
// $production, $development and $test, and $env.<name> for a named one. An
// option inside them is the same option as at the top level.

// EnvOverrides are the keys of the three environments: IsEnvOverride
// answers for them.
var EnvOverrides = []string{"$production", "$development", "$test"}

// IsEnvOverride reports whether a top-level key is $production,
// $development or $test. ($env is not one: its members are.)
func IsEnvOverride(key string) bool {
	switch key {
	case "$production", "$development", "$test":
		return true
	}
	return false
}

// EnvOverrideLen returns how many leading segments of an option path name
// the environment override it is written in: 1 for $production,
// $development and $test, 2 for $env.<name>, 0 outside any override.
func EnvOverrideLen(path []string) int {
	switch {
	case len(path) >= 1 && IsEnvOverride(path[0]):
		return 1
	case len(path) >= 2 && path[0] == "$env":
		return 2
	}
	return 0
}
