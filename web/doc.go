// Package web serves evolved's web site: an overview of every population
// and chess-lab run, each population's learning curves and champions, each
// generation's agents and games with a replay board, play against a
// champion or a built-in player in the browser, live updates by
// server-sent events and Prometheus metrics at /metrics.
//
// The site reads the database through its own read-only connection, so it
// serves any database, a running daemon's included, and cannot change a
// run. Its only state is the play sessions, bounded in number, lifetime and
// size. Pages are Go templates rendered on the server; the JavaScript
// (embedded, no CDN) draws the boards and the charts and follows the live
// updates. Every response carries a strict Content-Security-Policy.
//
// Security: the server listens on loopback unless told otherwise, and a
// server that listens elsewhere refuses to start without an access token.
// With a token, every request must carry it: an Authorization: Bearer
// header (Prometheus, scripts) or the cookie a browser receives by opening
// any page once with ?token=TOKEN. Wrong tokens, writes (play, lab) and
// games in play are bounded per client, an IP address (an IPv6 client by
// its /64), so that no client locks out or crowds out another. Request
// bodies are small and bounded, and no part of a URL ever names a file:
// the static files are embedded in the binary.
package web
