//go:build conformance

package main

import (
	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/tools/mcpserve/conformance/fixture"
)

// A binary built with -tags conformance can also load the MCP conformance
// suite's fixture tools (plugins/tools/mcpserve/conformance runs it that way).
func init() { extraModules = append(extraModules, cli.Module{Plugin: fixture.Plugin}) }
