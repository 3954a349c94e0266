// Package tools is the agent-tool service of the plugin host.
//
// Plugins register tools at runtime as effects: [Registry.Register] returns
// an unregister function that the plugin runtime calls when the plugin
// unloads. Every tool declares a JSON Schema for its arguments; the schema is
// compiled once at registration and enforced on every call, so a handler
// only ever sees arguments that satisfy its own contract.
//
// Results are rendered as canonical JSON (see [CanonicalJSON]) so that the
// same outcome always produces byte-identical text. That keeps transcripts
// diff-able, makes prompt caching effective and lets tests compare bytes.
//
// [MCPServer] exposes the registry to Model Context Protocol clients over
// Streamable HTTP and stdio, keeping the advertised tool list in sync with
// the registry and notifying connected clients when it changes.
package tools
