package loader

// Catalog tells the loader which plugins exist and what their configuration
// looks like. It is an interface so that the loader does not depend on the
// runtime's plugin registry.
type Catalog interface {
	// ConfigSchema returns the JSON Schema of the named plugin's config. ok is
	// false when no such plugin exists, which makes entries naming it invalid.
	// An empty schema with ok true means the plugin accepts any config, which
	// is then passed through as written.
	ConfigSchema(pluginName string) (schema []byte, ok bool)
}

// MapCatalog is a Catalog backed by a map from plugin name to config schema,
// for tests, examples and hosts whose plugin set is fixed at build time.
type MapCatalog map[string][]byte

// ConfigSchema implements Catalog.
func (c MapCatalog) ConfigSchema(pluginName string) ([]byte, bool) {
	s, ok := c[pluginName]
	return s, ok
}
