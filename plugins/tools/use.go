package tools

import (
	"context"

	"github.com/dshgo/dsh/app"
)

// ServiceName is the name the registry is provided under in the scope tree.
const ServiceName = "tools"

// Use registers a tool for the calling plugin as an effect: when its scope
// unloads, the tool is gone from the registry (and from every MCP
// session's tools/list). The scope must inject tools.
func Use(ctx *app.Context, t Tool) error {
	reg, err := app.Get[*Registry](ctx, ServiceName)
	if err != nil {
		return err
	}
	_, err = ctx.Acquire("tool "+t.Name, func() (app.Disposer, error) {
		unregister, err := reg.Register(t)
		if err != nil {
			return nil, err
		}
		return func(context.Context) error { unregister(); return nil }, nil
	})
	return err
}
