package loader

import "go.uber.org/zap"

// moduleLogger scopes the caller's logger to this package so that its lines
// can be told apart (and filtered) in the host's combined log. A nil logger
// means the caller does not care about logs, which must not crash anything.
func moduleLogger(log *zap.Logger) *zap.Logger {
	if log == nil {
		return zap.NewNop()
	}
	return log.Named("loader")
}
