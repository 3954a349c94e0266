package kernel

import (
	"fmt"
	"sort"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/app/loader"
)

// Catalog is the set of plugins a config file may name.
type Catalog map[string]app.Plugin

var _ loader.Catalog = Catalog(nil)

// NewCatalog indexes plugins by name; a name given twice is an error.
func NewCatalog(plugins ...app.Plugin) (Catalog, error) {
	c := Catalog{}
	for _, p := range plugins {
		if p.Name == "" {
			return nil, fmt.Errorf("catalog: plugin with no name")
		}
		if _, dup := c[p.Name]; dup {
			return nil, fmt.Errorf("catalog: plugin %q registered twice", p.Name)
		}
		c[p.Name] = p
	}
	return c, nil
}

// anyObject is the schema of a plugin that declares none.
var anyObject = []byte(`{"type":"object"}`)

// ConfigSchema implements loader.Catalog.
func (c Catalog) ConfigSchema(name string) ([]byte, bool) {
	p, ok := c[name]
	if !ok {
		return nil, false
	}
	if p.ConfigSchema == nil {
		return anyObject, true
	}
	return p.ConfigSchema, true
}

// Names lists the plugin names, sorted.
func (c Catalog) Names() []string {
	out := make([]string, 0, len(c))
	for n := range c {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
