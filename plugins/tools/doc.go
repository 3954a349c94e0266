// Package tools is the agent-tool service of the plugin host.
//
// Plugins register tools at runtime as effects: [Registry.Register] returns
// an unregister function that the plugin runtime calls when the plugin
// unloads. Every tool declares a JSON Schema for its arguments; the schema is
// compiled once at registration and enforced on every call, so a handler
// only ever sees arguments that satisfy its own contract.
//
// Before any of that, [Registry.Call] checks the raw arguments against
// bounds that cost nothing per element: the registry's cap on argument
// bytes ([Registry.SetMaxArgumentBytes]) and the tool's own
// [ArgumentLimit]s (the length of the arguments, the number of items of an
// array at a JSON pointer, read live on every call). A call over one is
// refused with that limit's code and details {limit, max, actual} before it
// is decoded, so a hostile 100,000-element call costs a skip-scan of its
// bytes, not seconds of schema validation.
//
// A discriminated union in a schema (a oneOf or anyOf whose branches each
// pin one property with a const or enum, such as an element's "type") is
// validated by dispatch: each value only against the branches its
// discriminator allows, not against every branch (see dispatch.go). What
// passes is exactly what the published schema accepts, and a refusal is
// explained from the published schema as before.
//
// Results are rendered as canonical JSON (see [CanonicalJSON]) so that the
// same outcome always produces byte-identical text. That keeps transcripts
// diff-able, makes prompt caching effective and lets tests compare bytes.
//
// Handlers are usually written with [Typed]: a function of a Go type the
// validated arguments are decoded into, strictly, so that a schema and
// the type that disagree fail with a pointer instead of losing a value.
//
// The registry knows no transport. Package mcpserve serves it to Model
// Context Protocol clients (Streamable HTTP and stdio); the host's /mcp
// route is its Endpoint plugin.
package tools
