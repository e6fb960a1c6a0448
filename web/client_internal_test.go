package web

import (
	"net/http/httptest"
	"testing"
)

// TestClientOf checks how a request's client is named for the limits:
// one host however many ports, an IPv6 client by its /64.
func TestClientOf(t *testing.T) {
	for _, tc := range []struct{ remote, client string }{
		{"203.0.113.7:40000", "203.0.113.7"},
		{"203.0.113.7:40001", "203.0.113.7"},
		{"[::ffff:203.0.113.7]:40000", "203.0.113.7"},
		{"[2001:db8:1:2::7]:40000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff:ffff:ffff:ffff]:1", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::7]:40000", "2001:db8:1:3::/64"},
		{"[fe80::1%eth0]:40000", "fe80::/64"},
		{"[::1]:40000", "::/64"},
		{"127.0.0.1:40000", "127.0.0.1"},
		{"203.0.113.7", "203.0.113.7"}, // no port
		{"@", "@"},                     // a Unix socket's peer
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if got := clientOf(r); got != tc.client {
			t.Errorf("clientOf(RemoteAddr %q) = %q, want %q", tc.remote, got, tc.client)
		}
	}
}
