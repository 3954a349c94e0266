package app

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Plugin is a unit the runtime can load into a scope. It is a value, not an
// interface, so that a plugin is declared in one place:
//
//	var Plugin = app.Plugin{
//		Name:   "greeter",
//		Inject: []app.Dep{app.Need("webServer"), app.Maybe("tools")},
//		Apply:  func(ctx *app.Context, cfg app.Config) error { … },
//	}
//
// Apply registers everything the plugin does through ctx (routes, tools,
// services, goroutines, child plugins) so that unloading can undo it.
type Plugin struct {
	// Name identifies the plugin in logs, listings and the YAML catalog.
	Name string
	// Inject lists the services the plugin uses. The scope stays pending
	// until every required one is provided, and restarts when one of them is
	// replaced or withdrawn. Optional services are bound if present.
	Inject []Dep
	// ConfigSchema is the JSON Schema of the plugin's config (used by the
	// loader to fill defaults, clamp numbers and validate). Nil means "any
	// object".
	ConfigSchema []byte
	// Apply starts the plugin. An error (or a panic) rolls back every effect
	// registered so far and leaves the scope failed.
	Apply func(ctx *Context, cfg Config) error
	// Reconfigure, when set, receives a new config without a restart. When
	// nil, a config change restarts the scope.
	Reconfigure func(ctx *Context, cfg Config) error
}

func (p Plugin) validate() error {
	if p.Name == "" {
		return errors.New("app: plugin has no name")
	}
	if p.Apply == nil {
		return fmt.Errorf("app: plugin %q has no Apply", p.Name)
	}
	seen := map[string]bool{}
	for _, d := range p.Inject {
		if d.Name == "" {
			return fmt.Errorf("app: plugin %q injects a service with no name", p.Name)
		}
		if seen[d.Name] {
			return fmt.Errorf("app: plugin %q injects %q twice", p.Name, d.Name)
		}
		seen[d.Name] = true
	}
	return nil
}

// Dep is one injected service. Optional dependencies are explicit (Cordis
// issue #97): Maybe("x") never blocks loading.
type Dep struct {
	Name     string `json:"name"`
	Optional bool   `json:"optional,omitempty"`
}

// Need declares a required service.
func Need(name string) Dep { return Dep{Name: name} }

// Maybe declares an optional service.
func Maybe(name string) Dep { return Dep{Name: name, Optional: true} }

// Config is a plugin's normalized configuration, as the loader produced it
// from YAML and the plugin's schema.
type Config map[string]any

// Decode copies the config into a typed struct through JSON, so plugins can
// declare `json` tags once and reuse them for the schema.
func (c Config) Decode(v any) error {
	if c == nil {
		c = Config{}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("app: encode config: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("app: decode config: %w", err)
	}
	return nil
}
