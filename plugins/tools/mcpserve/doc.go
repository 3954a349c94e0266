// Package mcpserve is the MCP transport of the tools registry: [Server]
// exposes a [tools.Registry] to Model Context Protocol clients over
// Streamable HTTP and stdio, keeping the advertised tool list in sync with
// the registry and notifying connected clients when it changes. Its HTTP
// sessions are capped in total and per credential ([WithSessionOwner]); a
// session past a cap is refused at initialize with too_many_sessions, and
// no open session is closed to make room (see [Server.HTTPHandler]).
// [Endpoint] is the host's built-in plugin that mounts it at [Path].
//
// Outside tests it is the only package of the host that imports the MCP
// Go SDK (whose package is named mcp, hence this one's name); the
// registry stays free of it.
package mcpserve
