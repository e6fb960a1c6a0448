package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		out, code := exitStatus(t, args...)
		if code != 0 || !strings.HasPrefix(out, "evolved ") {
			t.Errorf("evolved %v: status %d, output %q; want status 0 and a line starting with \"evolved \"", args, code, out)
		}
		for _, want := range []string{"\nrevision ", "\ntime ", "\nmodified ", "\ngo       go1."} {
			if !strings.Contains(out, want) {
				t.Errorf("evolved %v: output %q lacks %q", args, out, want)
			}
		}
	}
	if out, _ := exitStatus(t, "help"); !strings.Contains(out, "  version ") {
		t.Errorf("help does not list the version command:\n%s", out)
	}
}

func TestWriteVersion(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "evolved", Version: "v0.0.0-20260101000000-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "-buildmode", Value: "exe"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-01-01T00:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	cases := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"stamped", stamped, "evolved v0.0.0-20260101000000-0123456789ab+dirty\nrevision 0123456789abcdef0123456789abcdef01234567\n" +
			"time     2026-01-01T00:00:00Z\nmodified true\ngo       go1.26.0\n"},
		{"no vcs stamps", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "evolved", Version: "(devel)"}},
			"evolved (devel)\nrevision unknown\ntime     unknown\nmodified unknown\ngo       go1.26.0\n"},
		{"no build info", nil, "evolved unknown\nrevision unknown\ntime     unknown\nmodified unknown\ngo       unknown\n"},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := writeVersion(&b, c.info); err != nil || b.String() != c.want {
			t.Errorf("%s: writeVersion = %q, %v; want %q", c.name, b.String(), err, c.want)
		}
	}
}
