package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// freePort returns a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startProcess starts cmd with its output in a buffer and returns a
// channel that receives its exit; the process is killed when the test
// ends, if it is still running.
func startProcess(t *testing.T, cmd *exec.Cmd) (*syncWriter, chan error) {
	t.Helper()
	out := new(syncWriter)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		exited <- cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	return out, exited
}

// resumeGenerations is the target of the tests that resume an
// interrupted run of fastConfig (killed, restored from a backup, played by
// workers) and compare it with an uninterrupted one: one target, so that
// they compare with one reference run (localRun).
const resumeGenerations = 12

// reference is an uninterrupted local run of fastConfig: its database's
// fingerprint, and the time one of its generations took on this machine.
type reference struct {
	fingerprint   string
	perGeneration time.Duration
}

// references holds the uninterrupted runs the test binary has made, by
// generation target: the run is deterministic, so the tests that compare
// with a run of the same target share it.
var references = struct {
	sync.Mutex
	runs map[int]reference
}{runs: map[int]reference{}}

// localRun runs fastConfig locally for n generations, once per test
// binary, and returns its reference.
func localRun(t *testing.T, n int) reference {
	t.Helper()
	references.Lock()
	defer references.Unlock()
	if r, ok := references.runs[n]; ok {
		return r
	}
	dir, config := setup(t)
	start := time.Now()
	if out, err := evolved(dir, "run", "--config", config, "--generations", strconv.Itoa(n)).CombinedOutput(); err != nil {
		t.Fatalf("local run: %v\n%s", err, out)
	}
	r := reference{perGeneration: time.Since(start) / time.Duration(n), fingerprint: fingerprint(t, filepath.Join(dir, "evolved.db"))}
	references.runs[n] = r
	return r
}

// clusterSetup writes the workers' test configuration with an embedded
// NATS server on a free loopback port into a fresh directory, and returns
// the directory, the configuration's path and the server's URL.
func clusterSetup(t *testing.T) (dir, config, url string) {
	t.Helper()
	dir, config = setup(t)
	port := strconv.Itoa(freePort(t))
	text := fastConfig + "[cluster]\nnats = \"embedded\"\nlisten = \"127.0.0.1:" + port + "\"\nack_wait = 5\n"
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, config, "nats://127.0.0.1:" + port
}

// TestWorkersGiveTheLocalRun runs the daemon with an embedded NATS server
// and real worker processes: one plays the first generation and is killed
// with SIGKILL, three more play the rest, and the distillations' searches.
// The database holds exactly what a local run of the same configuration
// holds, distilled genomes included, and status lists the workers. A
// worker with the wrong token is refused with a clear error.
func TestWorkersGiveTheLocalRun(t *testing.T) {
	if testing.Short() {
		t.Skip("long: a daemon and worker processes (skipped with -short)")
	}
	const target = "4"
	want := localRun(t, 4).fingerprint
	dir, config, url := clusterSetup(t)
	withToken := func(cmd *exec.Cmd, token string) *exec.Cmd {
		cmd.Env = append(cmd.Env, "EVOLVED_NATS_TOKEN="+token)
		return cmd
	}
	daemonOut, daemonExit := startProcess(t, withToken(evolved(dir, "run", "--config", config, "--generations", target), "s3cret"))
	// A worker with the wrong token is refused at once.
	out, err := withToken(evolved(dir, "worker", "--nats", url, "--workers", "1"), "wrong").CombinedOutput()
	if err == nil || !strings.Contains(strings.ToLower(string(out)), "authorization") {
		t.Errorf("a worker with the wrong token: %v\n%s", err, out)
	}
	first := withToken(evolved(dir, "worker", "--nats", url, "--workers", "1", "--name", "first"), "s3cret")
	firstOut, firstExit := startProcess(t, first)
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(daemonOut.String(), `"generation":0,`) {
		if time.Now().After(deadline) {
			t.Fatalf("no generation in 2 minutes\ndaemon:\n%s\nworker:\n%s", daemonOut.String(), firstOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	first.Process.Signal(syscall.SIGKILL)
	<-firstExit
	for _, name := range []string{"second", "third", "fourth"} { // three worker processes finish the run
		startProcess(t, withToken(evolved(dir, "worker", "--nats", url, "--workers", "1", "--name", name), "s3cret"))
	}
	select {
	case err := <-daemonExit:
		if err != nil {
			t.Fatalf("daemon: %v\n%s", err, daemonOut.String())
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("the run did not finish in 3 minutes\n%s", daemonOut.String())
	}
	if got := fingerprint(t, filepath.Join(dir, "evolved.db")); got != want {
		t.Errorf("the run played by workers differs from the local run\n%s", daemonOut.String())
	}
}

// syncWriter is a buffer that a process's output and the test read at once.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestKilledDaemonWithWorkersResumes kills the daemon with SIGKILL in the
// middle of a run whose games a worker plays, and starts it again on the
// same database and embedded server store: the worker reconnects by
// itself, the daemon resumes from its last committed generation, and the
// database ends as a local run's.
func TestKilledDaemonWithWorkersResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("long: daemon and worker processes (skipped with -short)")
	}
	// Killed after generation 3, resumed to the target.
	target := strconv.Itoa(resumeGenerations)
	want := localRun(t, resumeGenerations).fingerprint
	dir, config, url := clusterSetup(t)
	db := filepath.Join(dir, "evolved.db")
	first := evolved(dir, "run", "--config", config, "--generations", target)
	firstOut, firstExit := startProcess(t, first)
	workerOut, _ := startProcess(t, evolved(dir, "worker", "--nats", url, "--workers", "2"))
	deadline := time.Now().Add(2 * time.Minute)
	for generations(t, db) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("no third generation in 2 minutes\ndaemon:\n%s\nworker:\n%s", firstOut.String(), workerOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	first.Process.Signal(syscall.SIGKILL)
	<-firstExit
	secondOut, secondExit := startProcess(t, evolved(dir, "run", "--config", config, "--generations", target))
	select {
	case err := <-secondExit:
		if err != nil {
			t.Fatalf("the restarted daemon: %v\n%s", err, secondOut.String())
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("the restarted run did not finish in 3 minutes\ndaemon:\n%s\nworker:\n%s", secondOut.String(), workerOut.String())
	}
	if got := fingerprint(t, db); got != want {
		t.Errorf("the run resumed with workers differs from the local run\ndaemon:\n%s", secondOut.String())
	}
}
