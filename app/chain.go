package app

import "context"

// A chain records, in a context, the scopes whose transition is running on
// the current call stack. A provider that withdraws a service waits for its
// dependants to unload, but must not wait for a dependant that is itself
// the caller (a scope restarting and so disposing the child that provides
// something it uses): that wait could never end.
type chain struct {
	scope *Scope
	next  *chain
}

type chainKey struct{}

func withChain(ctx context.Context, s *Scope) context.Context {
	prev, _ := ctx.Value(chainKey{}).(*chain)
	return context.WithValue(ctx, chainKey{}, &chain{scope: s, next: prev})
}

func inChain(ctx context.Context, s *Scope) bool {
	for c, _ := ctx.Value(chainKey{}).(*chain); c != nil; c = c.next {
		if c.scope == s {
			return true
		}
	}
	return false
}
