// Package connection decides which HTTP requests may reach a plugin route of
// the dsh web server ("admission").
//
// The server listens on loopback by default, but loopback is not a security
// boundary for HTTP: any web page the user visits can make the browser send
// requests to 127.0.0.1 (CSRF), and a hostile DNS name can be re-pointed at
// 127.0.0.1 so the browser treats the local server as same-origin with the
// attacker (DNS rebinding). Admission therefore checks, in order:
//
//  1. the Host header (defeats DNS rebinding: the attacker's name is not an
//     allowed host);
//  2. a bearer token, for programs (browsers never attach one on their own, so
//     bearer requests are CSRF-safe and skip the browser checks);
//  3. for a request carrying the session cookie, browser provenance via Origin
//     and Sec-Fetch-Site (defeats CSRF: a state-changing request must prove
//     it comes from our own page). A request with no credentials at all has
//     nothing a forgery could ride on, so it is simply unauthenticated (401,
//     the answer an MCP client expects) unless it says it comes from another
//     site;
//  4. a session cookie obtained through a one-time login link, the way Jupyter
//     hands out its token URL. Sessions are kept hashed in a file in the data
//     directory (SessionStore), so they survive a restart and `dsh sessions`
//     can list and revoke them; login links are one-time, short-lived and
//     kept in memory. `dsh login` asks the running host for a new link, which
//     only a bearer token may do (RequireBearer).
//
// Several nodes serve one host by sharing a backend (Config.State, package
// pgstate): the tokens, the sessions and the login links are its
// documents, so any node admits what any node issued, and a revocation on
// one is refused by all at their next request (Recheck ends what they
// hold open).
//
// Everything fails closed: an unknown or unreadable state rejects, and so
// does a database that cannot be reached.
package connection
