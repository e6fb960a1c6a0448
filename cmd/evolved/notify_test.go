package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the process writer and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor polls cond for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

func TestSystemdNotifyAndReload(t *testing.T) {
	dir, config := setup(t)
	sock := filepath.Join(dir, "notify.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var msgs lockedBuffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			msgs.Write(append(buf[:n:n], '\n'))
		}
	}()

	cmd := evolved(dir, "run", "--config", config)
	cmd.Env = append(cmd.Env, "NOTIFY_SOCKET="+sock, "WATCHDOG_USEC=200000")
	var logs lockedBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for _, want := range []string{"READY=1", "STATUS=draughts generation 1,", "WATCHDOG=1"} {
		// Generation 1 distills (the draughts default), which a busy
		// machine may take many seconds over.
		if !waitFor(60*time.Second, func() bool { return strings.Contains(msgs.String(), want) }) {
			t.Fatalf("no %q among the notifications:\n%s\nlog:\n%s", want, msgs.String(), logs.String())
		}
	}

	// Reload: workers and log level change at run time; the depth defines
	// the run and is refused.
	changed := strings.Replace(fastConfig, "workers = 2", "workers = 1\nlog_level = \"debug\"", 1)
	changed = strings.Replace(changed, "depth = 1", "depth = 3", 1)
	if err := os.WriteFile(config, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGHUP)
	if !waitFor(10*time.Second, func() bool { return strings.Contains(logs.String(), `"msg":"reloaded"`) }) {
		t.Fatalf("no reload in the log:\n%s", logs.String())
	}
	log := logs.String()
	for _, want := range []string{`"key":"workers","from":2,"to":1`, `"key":"log_level","from":"info","to":"debug"`, `"key":"draughts"`, `ignored`} {
		if !strings.Contains(log, want) {
			t.Errorf("reload log lacks %s:\n%s", want, log)
		}
	}

	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
	if !strings.Contains(msgs.String(), "STOPPING=1") {
		t.Errorf("no STOPPING=1 among the notifications:\n%s", msgs.String())
	}
}
