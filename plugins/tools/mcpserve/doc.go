// Package mcpserve is the MCP transport of the tools registry: [Server]
// exposes a [tools.Registry] to Model Context Protocol clients over
// Streamable HTTP and stdio, keeping the advertised tool list in sync with
// the registry and notifying connected clients when it changes. Its HTTP
// sessions are capped in total and per credential ([WithSessionOwner]); at
// a cap the session idle longest makes room (see [Server.HTTPHandler]).
// [Endpoint] is the host's built-in plugin that mounts it at [Path].
//
// Outside tests it is the only package of the host that imports the MCP
// Go SDK (whose package is named mcp, hence this one's name); the
// registry stays free of it.
package mcpserve
