//go:build unix && !linux

package store

// procScope is unknown without /proc: lock records carry no process
// identity and holders are judged by their pid alone (see holderDead).
func procScope() string { return "" }

func procStart(int) (string, procState) { return "", procUnknown }
