package app

import "errors"

var (
	// ErrNotActive is returned when an effect is registered on a scope that
	// is not loading or active: registering while unloading would leak the
	// effect (Cordis issue #91), so it is refused instead.
	ErrNotActive = errors.New("app: scope is not loading or active")
	// ErrNotInjected is returned by Get for a service the plugin did not
	// declare in Inject, or an optional one that is absent.
	ErrNotInjected = errors.New("app: service not injected")
	// ErrDisposed is returned when waiting on a scope that was disposed.
	ErrDisposed = errors.New("app: scope disposed")
	// ErrFailed wraps the apply error of a scope that failed.
	ErrFailed = errors.New("app: scope failed")
)
