// Package dshtest is the test kit for dsh's own tests (as fxtest is for
// fx): what tests in several packages need about a real host, written
// once.
//
// A real `dsh serve` as a separate process, for tests about the process —
// signals, exit codes, what it prints, files it leaves. Build compiles
// cmd/dsh with the race detector when the calling test runs under it, so a
// race in the server fails the test too:
//
//	bin := dshtest.Build(t)
//	p := dshtest.Start(t, bin, yaml)   // waits for the runtime file
//	… talk to p.URL with p.Token …
//	exit := p.Stop(syscall.SIGINT)     // code, elapsed, stdout, stderr
//
// Clients: Bearer adds a token to every request (an MCP client or
// http.Client talking to a host as a program does); MCPStream opens an
// MCP session's event stream with a token, to watch it end.
package dshtest
