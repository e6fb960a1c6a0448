package deploy

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"evolved/daemon"
)

const (
	unitFile   = "evolved.service"
	workerUnit = "evolved-worker.service"
	configFile = "evolved.toml"
	// maxExposure is the highest acceptable "Overall exposure level" of
	// systemd-analyze security (0 = fully locked down, 10 = unprotected).
	maxExposure = 2.0
	// binary is the path ExecStart must run; the test replaces it with a
	// dummy script so that verify does not need an installed binary.
	binary = "/usr/local/bin/evolved"
)

// unitSettings parses a unit file into section -> key -> values (in order;
// keys may repeat). Comments and blank lines are skipped. Continuation lines
// are not used in our unit and are rejected.
func unitSettings(t *testing.T, text string) map[string]map[string][]string {
	t.Helper()
	out := map[string]map[string][]string{}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
			continue
		case strings.HasSuffix(line, `\`):
			t.Fatalf("%s:%d: continuation lines are not supported by this test", unitFile, n)
		case line[0] == '[' && line[len(line)-1] == ']':
			section = line[1 : len(line)-1]
			if out[section] == nil {
				out[section] = map[string][]string{}
			}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				t.Fatalf("%s:%d: not a key=value line in a section: %q", unitFile, n, line)
			}
			k = strings.TrimSpace(k)
			out[section][k] = append(out[section][k], strings.TrimSpace(v))
		}
	}
	return out
}

// TestUnitContract checks the settings the daemon's contract depends on. It
// needs no systemd, so it runs everywhere.
func TestUnitContract(t *testing.T) {
	text, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	u := unitSettings(t, string(text))
	want := map[string]map[string]string{
		"Service": {
			"Type":                     "notify",
			"NotifyAccess":             "main",
			"ExecStart":                binary + " run --db /var/lib/evolved/evolved.db --config /etc/evolved/evolved.toml",
			"ExecReload":               "/bin/kill -HUP $MAINPID",
			"DynamicUser":              "yes",
			"StateDirectory":           "evolved",
			"ConfigurationDirectory":   "evolved",
			"ProtectSystem":            "strict",
			"PrivateNetwork":           "yes",
			"RestrictAddressFamilies":  "AF_UNIX",
			"CapabilityBoundingSet":    "",
			"NoNewPrivileges":          "yes",
			"MemoryDenyWriteExecute":   "yes",
			"UMask":                    "0077",
			"Restart":                  "on-failure",
			"RestartPreventExitStatus": "2",
			"TimeoutStopSec":           "30",
		},
		"Install": {"WantedBy": "multi-user.target"},
	}
	for section, kv := range want {
		for k, v := range kv {
			got := u[section][k]
			if len(got) == 0 {
				t.Errorf("[%s] %s is missing, want %q", section, k, v)
			} else if got[len(got)-1] != v {
				t.Errorf("[%s] %s=%q, want %q", section, k, got[len(got)-1], v)
			}
		}
	}
	if len(u["Service"]["WatchdogSec"]) == 0 {
		t.Error("[Service] WatchdogSec is missing: the daemon pings the watchdog")
	}
	if !slices.Contains(u["Service"]["SystemCallFilter"], "@system-service") {
		t.Errorf("[Service] SystemCallFilter=%q lacks @system-service", u["Service"]["SystemCallFilter"])
	}
}

// systemdAnalyze returns the path of systemd-analyze, skipping the test when
// it is absent or too old for --offline (systemd < 250).
func systemdAnalyze(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not found on PATH: the unit is not checked by systemd (install systemd to run this test)")
	}
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("systemd-analyze --version: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`^systemd (\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("systemd-analyze --version: unexpected output %q", out)
	}
	if v, _ := strconv.Atoi(string(m[1])); v < 250 {
		t.Skipf("systemd %d is too old: systemd-analyze security --offline needs systemd 250 or newer", v)
	}
	return path
}

// stagedUnit copies the unit into a temporary directory with ExecStart
// pointing to a dummy executable there, and returns the copy's path.
func stagedUnit(t *testing.T, unitFile string) string {
	t.Helper()
	text, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dummy := filepath.Join(dir, "evolved")
	if err := os.WriteFile(dummy, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := "ExecStart=" + binary + " "
	if !bytes.Contains(text, []byte("\n"+old)) {
		t.Fatalf("%s: no line starting with %q", unitFile, old)
	}
	text = bytes.ReplaceAll(text, []byte("\n"+old), []byte("\nExecStart="+dummy+" "))
	path := filepath.Join(dir, unitFile)
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runAnalyze(t *testing.T, sa string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(sa, args...)
	cmd.Env = append(os.Environ(), "SYSTEMD_COLORS=0", "SYSTEMD_PAGER=", "SYSTEMD_LOG_COLOR=0")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestUnitVerify runs systemd-analyze verify. It exits 0 even for unknown keys
// and unparsable values (which systemd ignores with a warning), so any message
// about our unit fails the test too. Messages about other units of the host
// are only logged.
func TestUnitVerify(t *testing.T) {
	sa := systemdAnalyze(t)
	for _, unitFile := range []string{unitFile, workerUnit} {
		path := stagedUnit(t, unitFile)
		out, err := runAnalyze(t, sa, "verify", "--man=no", "--recursive-errors=no", path)
		if err != nil {
			t.Errorf("systemd-analyze verify %s: %v", unitFile, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue
			}
			if strings.Contains(line, path) || strings.Contains(line, unitFile) {
				t.Errorf("systemd-analyze verify: %s", line)
			} else {
				t.Logf("systemd-analyze verify (other unit, ignored): %s", line)
			}
		}
	}
}

var exposureRE = regexp.MustCompile(`Overall exposure level for \S+: ([0-9]+(?:\.[0-9]+)?)`)

// TestUnitSecurity runs systemd-analyze security --offline=true and fails when
// the overall exposure is above maxExposure.
func TestUnitSecurity(t *testing.T) {
	sa := systemdAnalyze(t)
	for _, unitFile := range []string{unitFile, workerUnit} {
		path := stagedUnit(t, unitFile)
		out, err := runAnalyze(t, sa, "security", "--offline=true", "--no-pager", path)
		if err != nil {
			t.Fatalf("systemd-analyze security --offline=true %s: %v\n%s", unitFile, err, out)
		}
		m := exposureRE.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no \"Overall exposure level\" line in the output of systemd-analyze security:\n%s", out)
		}
		score, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", strings.TrimSpace(m[0]))
		if score > maxExposure {
			t.Errorf("%s: exposure %.1f > %.1f; the settings that cost points:", unitFile, score, maxExposure)
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "✗") {
					t.Log(line)
				}
			}
		}
	}
}

// TestExampleConfig checks that the example configuration parses and holds
// exactly the daemon's keys (it rejects unknown ones) with their built-in
// defaults, as `evolved run --print-config` prints them.
func TestExampleConfig(t *testing.T) {
	var got, want map[string]any
	if _, err := toml.DecodeFile(configFile, &got); err != nil {
		t.Fatalf("%s: %v", configFile, err)
	}
	var defaults bytes.Buffer
	if err := daemon.DefaultConfig().Print(&defaults); err != nil {
		t.Fatal(err)
	}
	if _, err := toml.Decode(defaults.String(), &want); err != nil {
		t.Fatalf("the printed defaults do not parse: %v", err)
	}
	compare(t, "", got, want)
}

// compare reports missing, unknown and differing keys of two decoded tables.
func compare(t *testing.T, prefix string, got, want map[string]any) {
	t.Helper()
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: key %s%s is missing", configFile, prefix, k)
		case isTable(w) && isTable(g):
			compare(t, prefix+k+".", g.(map[string]any), w.(map[string]any))
		case !reflect.DeepEqual(g, w):
			t.Errorf("%s: %s%s = %#v, want %#v", configFile, prefix, k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: unknown key %s%s (the daemon rejects unknown keys)", configFile, prefix, k)
		}
	}
}

func isTable(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

// TestInstallGuideNamesTheUnitsPaths checks that INSTALL.md, which the
// unit's header points to, describes every path the unit uses: the binary
// and config of ExecStart, the state directory and the database.
func TestInstallGuideNamesTheUnitsPaths(t *testing.T) {
	guide, err := os.ReadFile("INSTALL.md")
	if err != nil {
		t.Fatalf("the unit points to deploy/INSTALL.md: %v", err)
	}
	text, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	service := unitSettings(t, string(text))["Service"]
	var paths []string
	for _, field := range strings.Fields(service["ExecStart"][0]) {
		if strings.HasPrefix(field, "/") {
			paths = append(paths, field)
		}
	}
	paths = append(paths, "/var/lib/"+service["StateDirectory"][0], "/etc/"+service["ConfigurationDirectory"][0])
	if len(paths) < 5 {
		t.Fatalf("found only %v in the unit", paths)
	}
	for _, p := range paths {
		if !strings.Contains(string(guide), p) {
			t.Errorf("INSTALL.md does not mention %s, which the unit uses", p)
		}
	}
	if !strings.Contains(string(text), "deploy/INSTALL.md") {
		t.Error("the unit's header no longer points to deploy/INSTALL.md")
	}
}
