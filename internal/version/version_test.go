package version

import "testing"

// The embedded file must hold a version npm accepts: the release program
// writes it into every package.json as it is.
func TestFileIsASemanticVersion(t *testing.T) {
	if err := Check(String()); err != nil {
		t.Fatalf("VERSION: %v", err)
	}
}

func TestOverride(t *testing.T) {
	defer func(o string) { override = o }(override)
	override = "9.9.9-test.1"
	if got := String(); got != "9.9.9-test.1" {
		t.Errorf("String() = %q with the override set", got)
	}
}

func TestCheck(t *testing.T) {
	for _, v := range []string{"0.1.0", "1.2.3", "10.20.30", "1.0.0-rc.1", "1.0.0-alpha-a.b-c", "1.0.0+build.5", "1.0.0-0.3.7"} {
		if err := Check(v); err != nil {
			t.Errorf("Check(%q): %v", v, err)
		}
	}
	for _, v := range []string{"", "dev", "v1.2.3", "1.2", "1.2.3.4", "01.2.3", "1.2.3-", "1.2.3-01", "1.2.3+", " 1.2.3", "1.2.3\n"} {
		if Check(v) == nil {
			t.Errorf("Check(%q) accepted it", v)
		}
	}
}
