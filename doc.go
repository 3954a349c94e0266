// Package dsh embeds the dsh plugin host in a Go program.
//
// The host is a tree of plugin scopes (package app) held in a
// go.uber.org/fx graph together with its static services: a zap logger,
// the YAML config, the webServer (echo, behind one dispatcher that can
// mount and unmount routes while serving), connection admission, the
// tools registry (also served over MCP) and the YAML loader that turns
// config entries into plugin scopes and reloads them when the file
// changes.
//
// There are two ways to embed it:
//
//	h, err := dsh.New(dsh.WithConfigFile("dsh.yaml"), dsh.WithPlugins(myPlugin))
//	err = h.Start(ctx)
//	defer h.Stop(ctx)
//
// or, in a program that already uses fx:
//
//	fx.New(dsh.Module, dsh.Plugins(myPlugin), fx.Supply(dsh.ConfigSource{Path: "dsh.yaml"}), …)
//
// A headless composition (HeadlessModule, or the Headless option) leaves
// the webServer out: plugins that inject it keep that part pending and
// everything else runs.
package dsh
