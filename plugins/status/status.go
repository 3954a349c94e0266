// Package status is a small built-in plugin that reports the host's
// state: a public liveness probe, an admitted status route and a
// read-only agent tool. It is also the simplest complete example of a
// plugin: config schema, injected services, routes and a tool.
package status

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/webserver"
)

// Config is the plugin's YAML config.
type Config struct {
	// Title names this host in status answers.
	Title string `json:"title"`
	// IncludeEffects adds every scope's effect labels to the answers.
	IncludeEffects bool `json:"includeEffects"`
}

// Schema is the JSON Schema of Config.
var Schema = []byte(`{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "title": {"type": "string", "maxLength": 200, "default": "dsh"},
    "includeEffects": {"type": "boolean", "default": false}
  }
}`)

// Plugin reports status. Its tool needs only the tools service; its routes
// live in a webServer sub-scope, so a headless host still has the tool.
var Plugin = app.Plugin{
	Name:         "status",
	Inject:       []app.Dep{app.Need(tools.ServiceName)},
	ConfigSchema: Schema,
	Apply: func(ctx *app.Context, raw app.Config) error {
		var cfg Config
		if err := raw.Decode(&cfg); err != nil {
			return err
		}
		r := &reporter{rt: ctx.Runtime(), cfg: cfg, started: time.Now()}
		if err := tools.Use(ctx, tools.Tool{
			Name:        "dsh_status",
			Description: "Report the dsh host's plugin scopes (id, plugin name, state, error) and services. Read-only; takes no arguments.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{}}`),
			Annotations: tools.Annotations{Title: "Host status", ReadOnly: true, Idempotent: true},
			Handler:     tools.Typed(func(context.Context, struct{}) (Report, error) { return r.report(), nil }),
		}); err != nil {
			return err
		}
		_, err := ctx.Inject([]app.Dep{app.Need(webserver.ServiceName)}, func(web *app.Context) error {
			return webserver.Use(web,
				webserver.Route{Method: http.MethodGet, Path: "/healthz", Public: true, Handler: r.healthz},
				webserver.Route{Method: http.MethodGet, Path: "/api/status", Handler: r.status},
			)
		})
		return err
	},
}

type reporter struct {
	rt      *app.Runtime
	cfg     Config
	started time.Time
}

// Report is the status answer.
type Report struct {
	Title    string            `json:"title"`
	Uptime   string            `json:"uptime"`
	Scopes   []app.ScopeInfo   `json:"scopes"`
	Services map[string]uint64 `json:"services"`
}

func (r *reporter) report() Report {
	scopes := r.rt.Scopes()
	if !r.cfg.IncludeEffects {
		for i := range scopes {
			scopes[i].Effects = nil
		}
	}
	return Report{
		Title:    r.cfg.Title,
		Uptime:   time.Since(r.started).Round(time.Second).String(),
		Scopes:   scopes,
		Services: r.rt.Services(),
	}
}

func (r *reporter) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

func (r *reporter) status(c echo.Context) error {
	return c.JSON(http.StatusOK, r.report())
}
