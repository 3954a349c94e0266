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

// UnmarshalText reads a state name, so listings decode back into States.
func (s *State) UnmarshalText(b []byte) error {
	for i, name := range stateNames {
		if name == string(b) {
			*s = State(i)
			return nil
		}
	}
	return fmt.Errorf("app: unknown state %q", b)
}

// holdsServices reports whether a scope in this state may be using the
// services it injected.
func (s State) holdsServices() bool {
	return s == StateLoading || s == StateActive || s == StateUnloading
}
