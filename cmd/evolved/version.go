package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
)

// versionCommand implements `evolved version` (also `evolved --version`):
// which build this is, so that a result or a bug report can name it.
func versionCommand(fs *flag.FlagSet) action {
	setHelp(fs, help{
		usage: []string{""},
		about: `Prints the module version, the Go version and, when the binary was built
from a git checkout, the commit, its time and whether the tree was modified.`,
	})
	return func(_ context.Context, _ io.Reader, stdout, _ io.Writer) error {
		info, ok := debug.ReadBuildInfo()
		if !ok {
			info = nil
		}
		return writeVersion(stdout, info)
	}
}

// writeVersion prints info's module version and VCS stamps, one per line.
// A nil info (a binary built without module support) and missing stamps
// (go run, -buildvcs=false, a build outside a checkout) print "unknown"
// rather than failing: the command must work on any binary.
func writeVersion(w io.Writer, info *debug.BuildInfo) error {
	version, goVersion := "unknown", "unknown"
	vcs := map[string]string{}
	if info != nil {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		for _, s := range info.Settings {
			vcs[s.Key] = s.Value
		}
	}
	setting := func(key string) string {
		if v, ok := vcs[key]; ok && v != "" {
			return v
		}
		return "unknown"
	}
	_, err := fmt.Fprintf(w, "evolved %s\nrevision %s\ntime     %s\nmodified %s\ngo       %s\n",
		version, setting("vcs.revision"), setting("vcs.time"), setting("vcs.modified"), goVersion)
	return err
}
