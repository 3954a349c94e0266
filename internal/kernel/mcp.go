package kernel

import (
	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/webserver"
)

// MCPPath is the Streamable HTTP endpoint agents connect to.
const MCPPath = "/mcp"

// MCPEndpoint is the built-in plugin that serves the tools registry over
// MCP Streamable HTTP. It waits for webServer, so a headless host simply
// has no HTTP endpoint (stdio still works).
func MCPEndpoint(m *tools.MCPServer) app.Plugin {
	return app.Plugin{
		Name:   "mcp",
		Inject: []app.Dep{app.Need(webserver.ServiceName), app.Need(tools.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			h := echo.WrapHandler(m.HTTPHandler())
			return webserver.Use(ctx, webserver.Route{Method: "*", Path: MCPPath, Handler: h})
		},
	}
}
