package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// The environment variables that hold NATS credentials. Credentials come
// from the environment (a systemd unit's EnvironmentFile, say), never from
// a command line, where every user of the machine can read them.
const (
	EnvToken    = "EVOLVED_NATS_TOKEN"
	EnvUser     = "EVOLVED_NATS_USER"
	EnvPassword = "EVOLVED_NATS_PASSWORD"
)

// ConnectOptions say how a coordinator or a worker connects to NATS.
type ConnectOptions struct {
	// URL is the server's URL, nats://host:4222 (tls://host:4222 for TLS).
	URL string
	// Name names the connection in the server's monitoring.
	Name string
	// Token, or User and Password, are the credentials (see
	// FromEnvironment).
	Token, User, Password string
	// TLSCA is a file of certificate authorities to trust; TLSCert and
	// TLSKey the client's certificate and key files, for servers that
	// require them.
	TLSCA, TLSCert, TLSKey string
	// Retry keeps trying to reach the server at start (a worker started
	// before its server), every two seconds; without it an unreachable
	// server is an error at once. Wrong credentials are an error either
	// way.
	Retry bool
	// Log receives a line when the connection is lost and when it is back.
	Log *slog.Logger
}

// FromEnvironment fills the credentials from EnvToken, EnvUser and
// EnvPassword as lookup (os.LookupEnv) finds them.
func (o ConnectOptions) FromEnvironment(lookup func(string) (string, bool)) ConnectOptions {
	o.Token, _ = lookup(EnvToken)
	o.User, _ = lookup(EnvUser)
	o.Password, _ = lookup(EnvPassword)
	return o
}

// Connect connects to NATS. The connection reconnects by itself, for
// ever, after the server goes away: coordinators and workers carry on
// when it is back. Settings that cannot work (no URL, one that does not
// parse, a user without a password, a certificate without its key) are
// refused before any attempt, with an error wrapping ErrConfig.
func Connect(ctx context.Context, o ConnectOptions) (*nats.Conn, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	opts := []nats.Option{
		nats.Name(o.Name), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if o.Log != nil {
				o.Log.Warn("NATS connection lost; reconnecting", "url", o.URL, "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			if o.Log != nil {
				o.Log.Info("NATS connection back", "url", nc.ConnectedUrlRedacted())
			}
		}),
	}
	if o.Token != "" {
		opts = append(opts, nats.Token(o.Token))
	}
	if o.User != "" {
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	}
	if o.TLSCA != "" {
		opts = append(opts, nats.RootCAs(o.TLSCA))
	}
	if o.TLSCert != "" || o.TLSKey != "" {
		opts = append(opts, nats.ClientCert(o.TLSCert, o.TLSKey))
	}
	for logged := false; ; logged = true {
		nc, err := nats.Connect(o.URL, opts...)
		if err == nil {
			return nc, nil
		}
		if !o.Retry || !errors.Is(err, nats.ErrNoServers) {
			return nil, fmt.Errorf("cluster: connect to %s: %w", redact(o.URL), err)
		}
		if !logged && o.Log != nil {
			o.Log.Info("waiting for the NATS server", "url", redact(o.URL), "err", err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("cluster: connect to %s: %w", redact(o.URL), ctx.Err())
		case <-time.After(2 * time.Second):
		}
	}
}

// check refuses the options that no server would accept, as nats.Connect
// reads them: a comma-separated list of URLs, nats:// where a URL has no
// scheme.
func (o ConnectOptions) check() error {
	if strings.TrimSpace(o.URL) == "" {
		return fmt.Errorf("%w: no NATS URL", ErrConfig)
	}
	for _, u := range strings.Split(o.URL, ",") {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		if !strings.Contains(u, "://") {
			u = "nats://" + u
		}
		if _, err := url.Parse(u); err != nil {
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err // without the URL, which may hold a password
			}
			return fmt.Errorf("%w: NATS URL %s: %w", ErrConfig, redact(o.URL), err)
		}
	}
	if (o.User == "") != (o.Password == "") {
		return fmt.Errorf("%w: $%s and $%s go together", ErrConfig, EnvUser, EnvPassword)
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return fmt.Errorf("%w: a client TLS certificate (tls-cert) goes with its key (tls-key), or neither", ErrConfig)
	}
	return nil
}

// redact returns url with the password it may hold replaced by "xxxxx".
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
