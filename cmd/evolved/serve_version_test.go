package main

import (
	"runtime/debug"
	"testing"
)

// TestVersionNamesTheCommitOnce checks the footer's version: a
// pseudo-version that holds the commit gets it once, a version without
// it (a tag, or (devel)) gets it appended, and no stamp leaves it as is.
func TestVersionNamesTheCommitOnce(t *testing.T) {
	stamp := []debug.BuildSetting{{Key: "vcs.revision", Value: "abcdef1234567890abcdef1234567890abcdef12"}}
	for _, c := range []struct {
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"v0.0.0-20261207011234-abcdef123456+dirty", stamp, "v0.0.0-20261207011234-abcdef123456+dirty"},
		{"(devel)", stamp, "(devel) abcdef123456"},
		{"v1.2.0", stamp, "v1.2.0 abcdef123456"},
		{"(devel)", nil, "(devel)"},
	} {
		if got := versionWithCommit(c.version, c.settings); got != c.want {
			t.Errorf("versionWithCommit(%q) = %q, want %q", c.version, got, c.want)
		}
	}
}
