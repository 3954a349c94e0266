package app

import "fmt"

// State is where a scope is in its life.
//
//	            deps ready          apply ok
//	Pending ───────────────► Loading ────────► Active
//	   ▲                        │ apply err      │ dep withdrawn, provider
//	   │                        ▼                │ replaced, restart, dispose
//	   │          Failed ◄── (rollback)          ▼
//	   │            │ retry               Unloading
//	   └────────────┴──────────────────────────┤
//	                                           ▼
//	 any state ──── Dispose ──────────────► Disposed (terminal)
//
// Pending means "waiting for required services"; Failed keeps the apply
// error until a retry (an explicit restart or a change of its services).
// Whatever state a scope is in, Dispose always ends in Disposed.
type State int32

const (
	StatePending State = iota
	StateLoading
	StateActive
	StateFailed
	StateUnloading
	StateDisposed
)

var stateNames = [...]string{"pending", "loading", "active", "failed", "unloading", "disposed"}

func (s State) String() string {
	if s < 0 || int(s) >= len(stateNames) {
		return fmt.Sprintf("State(%d)", int32(s))
	}
	return stateNames[s]
}

// MarshalText renders the state by name, so JSON listings read "active"
// rather than 2.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// settled reports whether a scope in this state is not in the middle of a
// transition that touches its services.
func (s State) holdsServices() bool {
	return s == StateLoading || s == StateActive || s == StateUnloading
}
