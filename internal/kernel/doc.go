// Package kernel is the host's machinery between the fx graph and the
// scope tree: the plugin catalog and the entries the YAML file loads.
// (The built-in admin API is plugins/admin; the built-in /mcp endpoint is
// plugins/tools/mcpserve's Endpoint.)
package kernel
