package daemon

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"strings"
)

// presetFiles holds the presets: settings a name stands for, read over the
// built-in defaults before the configuration file (see LoadConfig).
//
//go:embed presets/*.toml
var presetFiles embed.FS

// PresetKey is the key of the overrides that names a preset (the run
// command's --preset flag): LoadConfig reads the preset over the built-in
// defaults, under every other layer, rather than setting a key.
const PresetKey = "preset"

// Presets returns the names of the presets, sorted.
func Presets() []string {
	entries, err := presetFiles.ReadDir("presets")
	if err != nil {
		panic(fmt.Sprintf("daemon: the embedded presets: %v", err))
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	slices.Sort(names)
	return names
}

// applyPreset reads the preset name over c. An unknown name is a
// ConfigError that lists the known ones.
func applyPreset(c Config, name string) (Config, error) {
	data, err := presetFiles.ReadFile("presets/" + name + ".toml")
	if err != nil || strings.ContainsAny(name, "/.") {
		return c, &ConfigError{Key: PresetKey, Value: fmt.Sprintf("%q", name), Msg: "want one of " + strings.Join(Presets(), ", ")}
	}
	return ParseConfig(c, bytes.NewReader(data), "preset "+name)
}
