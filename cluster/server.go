package cluster

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure an embedded NATS server.
type ServerOptions struct {
	// Listen is the host:port clients connect to; default
	// 127.0.0.1:4222. Port 0 picks a free port (tests).
	Listen string
	// StoreDir is where JetStream keeps its streams: beside the database.
	StoreDir string
	// Token, or User and Password, are the credentials clients must give.
	// A server listening beyond loopback requires one of them.
	Token, User, Password string
	// MaxStore bounds JetStream's disk use in bytes; default 1 GiB.
	MaxStore int64
	// TLSCert and TLSKey, if set, are the server's certificate and key
	// files: clients must then speak TLS (tls:// or nats:// URLs both
	// work) and trust the certificate's authority.
	TLSCert, TLSKey string
}

// ErrConfig is wrapped by every error about the settings of a server or a
// connection (an address, credentials, certificates that go in pairs), as
// against a failure to reach or run one: a caller can tell a setting to
// fix from a fault to retry.
var ErrConfig = errors.New("cluster: bad settings")

// ErrInsecure is returned for an embedded server that would listen beyond
// loopback without credentials. It wraps ErrConfig.
var ErrInsecure = fmt.Errorf("%w: an embedded NATS server listening beyond loopback needs credentials", ErrConfig)

// Server is an embedded NATS server with JetStream.
type Server struct {
	ns *server.Server
}

// StartServer starts an embedded NATS server with JetStream and waits
// until it accepts connections.
func StartServer(o ServerOptions) (*Server, error) {
	if o.Listen == "" {
		o.Listen = "127.0.0.1:4222"
	}
	host, portText, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("%w: listen %q: %w", ErrConfig, o.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("%w: listen %q: want host:port", ErrConfig, o.Listen)
	}
	if o.StoreDir == "" {
		return nil, fmt.Errorf("%w: an embedded NATS server needs a store directory", ErrConfig)
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	if !loopback && o.Token == "" && o.User == "" {
		return nil, fmt.Errorf("%w (listen %s): set a token or a user and password", ErrInsecure, o.Listen)
	}
	if (o.User == "") != (o.Password == "") {
		return nil, fmt.Errorf("%w: an embedded NATS server takes a user with a password, or neither", ErrConfig)
	}
	if o.MaxStore <= 0 {
		o.MaxStore = 1 << 30
	}
	var tlsConfig *tls.Config
	if o.TLSCert != "" || o.TLSKey != "" {
		if o.TLSCert == "" || o.TLSKey == "" {
			return nil, fmt.Errorf("%w: an embedded NATS server takes a TLS certificate with its key, or neither", ErrConfig)
		}
		if tlsConfig, err = server.GenTLSConfig(&server.TLSConfigOpts{CertFile: o.TLSCert, KeyFile: o.TLSKey}); err != nil {
			return nil, fmt.Errorf("cluster: embedded NATS server TLS: %w", err)
		}
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	ns, err := server.NewServer(&server.Options{
		ServerName: "evolved", Host: host, Port: port,
		JetStream: true, StoreDir: o.StoreDir, JetStreamMaxStore: o.MaxStore,
		Authorization: o.Token, Username: o.User, Password: o.Password,
		TLSConfig: tlsConfig, TLS: tlsConfig != nil, TLSTimeout: 2,
		NoLog: true, NoSigs: true,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: embedded NATS server: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("cluster: embedded NATS server on %s did not start within 10 s", o.Listen)
	}
	return &Server{ns: ns}, nil
}

// URL returns the URL clients connect to.
func (s *Server) URL() string { return s.ns.ClientURL() }

// Close stops the server and waits until it has.
func (s *Server) Close() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
