package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestBadSettingsWrapErrConfig checks that settings no server accepts are
// refused before any attempt with an error wrapping ErrConfig, which names
// what is wrong, and that a server out of reach is not one: evolved exits
// 2 for the first (fix the settings) and 1 for the second (retry).
func TestBadSettingsWrapErrConfig(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"no URL", func() error { _, err := Connect(ctx, ConnectOptions{}); return err }, "no NATS URL"},
		{"URL that does not parse", func() error { _, err := Connect(ctx, ConnectOptions{URL: "::bad"}); return err }, `invalid port ":bad"`},
		{"second URL that does not parse", func() error {
			_, err := Connect(ctx, ConnectOptions{URL: "nats://127.0.0.1:4222, nats://h:x"})
			return err
		}, `invalid port ":x"`},
		{"user without password", func() error {
			_, err := Connect(ctx, ConnectOptions{URL: "nats://127.0.0.1:1", User: "u"})
			return err
		}, EnvPassword},
		{"certificate without key", func() error {
			_, err := Connect(ctx, ConnectOptions{URL: "nats://127.0.0.1:1", TLSCert: "c.pem"})
			return err
		}, "tls-key"},
		{"listen without port", func() error {
			_, err := StartServer(ServerOptions{Listen: "localhost", StoreDir: t.TempDir()})
			return err
		}, `listen "localhost"`},
		{"listen on port 70000", func() error {
			_, err := StartServer(ServerOptions{Listen: "127.0.0.1:70000", StoreDir: t.TempDir()})
			return err
		}, "want host:port"},
		{"no store", func() error { _, err := StartServer(ServerOptions{Listen: "127.0.0.1:0"}); return err }, "store directory"},
		{"open without credentials", func() error {
			_, err := StartServer(ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir()})
			return err
		}, "credentials"},
		{"server user without password", func() error {
			_, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), User: "u"})
			return err
		}, "user with a password"},
		{"server certificate without key", func() error {
			_, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), TLSCert: "c.pem"})
			return err
		}, "certificate with its key"},
	} {
		err := c.err()
		if !errors.Is(err, ErrConfig) || !strings.Contains(fmtErr(err), c.want) {
			t.Errorf("%s: %v, want an error wrapping ErrConfig that says %q", c.name, err, c.want)
		}
	}
	if _, err := StartServer(ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir()}); !errors.Is(err, ErrInsecure) {
		t.Errorf("open without credentials: %v, want ErrInsecure", err)
	}
	_, err := Connect(ctx, ConnectOptions{URL: "nats://127.0.0.1:1"})
	if err == nil || errors.Is(err, ErrConfig) {
		t.Errorf("a server out of reach: %v, want an error that is not ErrConfig", err)
	}
}

// fmtErr returns err's message, or "" for nil.
func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
