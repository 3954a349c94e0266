package dsh_test

import (
	"context"
	"encoding/json"
	"fmt"

	"go.uber.org/fx"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/tools"
)

// greeter is a plugin that registers one agent tool.
var greeter = app.Plugin{
	Name:         "greeter",
	Inject:       []app.Dep{app.Need(tools.ServiceName)},
	ConfigSchema: []byte(`{"type":"object","properties":{"greeting":{"type":"string","default":"hello"}}}`),
	Apply: func(ctx *app.Context, cfg app.Config) error {
		greeting := cfg["greeting"].(string)
		return tools.Use(ctx, tools.Tool{
			Name:        "greet",
			Description: "Greet someone by name.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"type":"string"}}}`),
			Handler: tools.Typed(func(_ context.Context, in struct {
				Name string `json:"name"`
			}) (map[string]string, error) {
				return map[string]string{"text": greeting + ", " + in.Name}, nil
			}),
		})
	},
}

// A program embeds the host with New, Start and Stop. This one runs
// headless (no web server) and calls the plugin's tool directly.
func Example() {
	h, err := dsh.New(
		dsh.Headless(),
		dsh.WithPlugins(greeter),
		dsh.WithConfigYAML([]byte("host: {dataDir: "+tempDir()+", log: {level: error}}\nplugins:\n  - name: greeter\n")),
	)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	if err := h.Start(ctx); err != nil {
		panic(err)
	}
	defer h.Stop(ctx)

	res := h.Tools.Call(ctx, "greet", json.RawMessage(`{"name":"Ada"}`))
	fmt.Println(string(res.JSON))
	// Output: {"ok":true,"text":"hello, Ada"}
}

// A program that already uses fx composes the host's modules itself.
func Example_fx() {
	var reg *tools.Registry
	app := fx.New(
		dsh.HeadlessModule,
		dsh.Plugins(greeter),
		fx.Supply(dsh.ConfigSource{YAML: []byte("host: {dataDir: " + tempDir() + ", log: {level: error}}\nplugins:\n  - {name: greeter, config: {greeting: hi}}\n")}),
		fx.NopLogger,
		fx.Populate(&reg),
	)
	ctx := context.Background()
	if err := app.Start(ctx); err != nil {
		panic(err)
	}
	defer app.Stop(ctx)
	fmt.Println(string(reg.Call(ctx, "greet", json.RawMessage(`{"name":"Grace"}`)).JSON))
	// Output: {"ok":true,"text":"hi, Grace"}
}
