// Package app is the host's plugin runtime: it loads plugins into scopes,
// keeps track of everything each one did, and undoes it when the scope goes.
//
// A Runtime holds a tree of scopes under an always-active root. Loading a
// Plugin creates a Scope whose Apply receives a Context; every side effect
// registered through that Context (a route, a tool, a goroutine started
// with Go, a child plugin, anything wrapped by Effect or Acquire) is an
// effect of the scope and is disposed in reverse order when the scope
// unloads, so unloading a parent takes its whole subtree with it. Plugins
// meet through named services: one scope calls Provide, others list the
// name in Inject and read it with Get. A scope waits, pending, for its
// required services, restarts when one is replaced, and is unloaded
// before a service it uses is withdrawn. State draws the life of one
// scope.
package app
