package store

// procState is what procStart could tell about a pid.
type procState int

const (
	procUnknown procState = iota // cannot tell: judge by kill(pid, 0)
	procGone                     // no such process (or a zombie)
	procRunning                  // running, with the start time returned
)

// procIdentity is what a lock record's Proc holds for this process:
// "<scope>/<start time>", or "" if either is unknown.
func procIdentity(pid int) (scope, identity string) {
	scope = procScope()
	if scope == "" {
		return "", ""
	}
	start, st := procStart(pid)
	if st != procRunning {
		return scope, ""
	}
	return scope, scope + "/" + start
}
