// Command dsh runs the dsh plugin host and talks to a running one.
//
//	dsh serve --config dsh.yaml     run the host; prints its URL and a login link
//	dsh mcp --config dsh.yaml       serve the agent tools over MCP on stdio
//	dsh plugins ls|load|unload|reload [ID]
//	dsh login                       print a new one-time login link for the running host
//	dsh sessions ls | revoke ID|--all
//	dsh token create NAME | ls | revoke ID
//	dsh version
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "dsh:", err)
		os.Exit(1)
	}
}
