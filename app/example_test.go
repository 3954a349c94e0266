package app_test

import (
	"context"
	"fmt"

	"github.com/dshgo/dsh/app"
)

// A plugin that injects a service stays pending until a provider appears,
// and unloads before its provider goes.
func Example() {
	rt := app.New(app.Options{})
	defer rt.Dispose(context.Background())

	user, _ := rt.Root().Plugin(app.Plugin{
		Name:   "user",
		Inject: []app.Dep{app.Need("db")},
		Apply: func(ctx *app.Context, _ app.Config) error {
			db, _ := app.Get[string](ctx, "db")
			fmt.Println("user loaded with", db)
			_, err := ctx.Effect("close", func(context.Context) error {
				fmt.Println("user unloaded")
				return nil
			})
			return err
		},
	}, nil)
	fmt.Println("user is", user.State())

	db, _ := rt.Root().Plugin(app.Plugin{
		Name: "db",
		Apply: func(ctx *app.Context, _ app.Config) error {
			return ctx.Provide("db", "postgres://local")
		},
	}, nil)
	fmt.Println("user is", user.State())

	_ = db.Dispose(context.Background())
	fmt.Println("user is", user.State())
	// Output:
	// user is pending
	// user loaded with postgres://local
	// user is active
	// user unloaded
	// user is pending
}

// Effects are undone newest first when the scope is disposed.
func ExampleContext_Effect() {
	rt := app.New(app.Options{})
	s, _ := rt.Root().Plugin(app.Plugin{Name: "p", Apply: func(ctx *app.Context, _ app.Config) error {
		for _, name := range []string{"open file", "start server", "register tool"} {
			name := name
			if _, err := ctx.Effect(name, func(context.Context) error {
				fmt.Println("undo", name)
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	}}, nil)
	_ = s.Dispose(context.Background())
	// Output:
	// undo register tool
	// undo start server
	// undo open file
}
