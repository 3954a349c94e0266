// Package kernel is the host's machinery between the fx graph and the
// scope tree: the plugin catalog, the entries the YAML file loads, the
// built-in admin endpoint, and the runtime file the CLI reads. (The
// built-in /mcp endpoint is plugins/tools/mcpserve's Endpoint.)
package kernel
