package cluster

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// into dir and returns their paths.
func selfSigned(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "evolved test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// TestEmbeddedServerTLS starts the embedded server with a certificate: a
// client that trusts it plays a generation through it, one that does not
// is refused with a certificate error, and a server beyond loopback
// without credentials is refused at start.
func TestEmbeddedServerTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: filepath.Join(dir, "js"), TLSCert: cert, TLSKey: key, Token: "t0ken"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	ctx := context.Background()
	if _, err := Connect(ctx, ConnectOptions{URL: s.URL(), Token: "t0ken"}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a client that does not trust the server's certificate: %v, want a certificate error", err)
	}
	nc, err := Connect(ctx, ConnectOptions{URL: s.URL(), Token: "t0ken", TLSCA: cert, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if !nc.TLSRequired() {
		t.Error("the connection does not use TLS")
	}
	c, err := NewCoordinator(ctx, nc, Limits{}, log)
	if err != nil {
		t.Fatal(err)
	}
	startWorkers(t, nc, 1, log)
	g, want := testGeneration(t)
	got, err := Play(ctx, c, g)
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, got, want)
	if _, err := StartServer(ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "credentials") {
		t.Errorf("a server on every interface without credentials: %v, want a refusal naming credentials", err)
	}
}
