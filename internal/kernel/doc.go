// Package kernel is the host's machinery between the fx graph and the
// scope tree: the plugin catalog, the entries the YAML file loads, the
// built-in MCP and admin endpoints, and the runtime file the CLI reads.
package kernel
