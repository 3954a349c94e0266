package webserver

import (
	"context"
	"fmt"

	"github.com/dshgo/dsh/app"
)

// ServiceName is the name the server is provided under in the scope tree.
const ServiceName = "webServer"

// Use mounts routes for the calling plugin as one effect: when its scope
// unloads, the routes disappear (new requests get 404) and the unload
// waits, up to the server's drain timeout, for requests already inside
// them. The scope must inject webServer.
func Use(ctx *app.Context, routes ...Route) error {
	srv, err := app.Get[*Server](ctx, ServiceName)
	if err != nil {
		return err
	}
	owner := ctx.Scope().String()
	_, err = ctx.Acquire(fmt.Sprintf("routes %s (%d)", owner, len(routes)), func() (app.Disposer, error) {
		m, err := srv.Mount(owner, routes...)
		if err != nil {
			return nil, err
		}
		return func(c context.Context) error { return m.Unmount(c) }, nil
	})
	return err
}
