package webserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"go.uber.org/zap"
)

// forceGrace is how long Shutdown waits, after force-closing connections,
// for handlers to notice their cancelled context and return. Handlers that
// ignore cancellation cannot be stopped from outside; we report them.
const forceGrace = 2 * time.Second

// Shutdown stops the server: it ends event streams at once (streams.go),
// stops accepting, lets in-flight requests finish for up to
// ShutdownTimeout (or ctx's deadline, if sooner), then cancels request
// contexts and force-closes connections so handlers that ignore their
// context cannot hold shutdown hostage. It returns once the serving
// goroutine has exited. It is idempotent: a later call waits for the first
// to finish (or for its own ctx) and returns the first call's result.
//
// The lifecycle lock is not held while waiting, so handlers that call URL
// or Addr during shutdown do not stall it.
func (s *Server) Shutdown(ctx context.Context) error {
	s.lifeMu.Lock()
	if done := s.stopDone; done != nil {
		s.lifeMu.Unlock()
		select {
		case <-done:
			return s.stopErr
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s.stopDone = make(chan struct{})
	srv, cancelBase, serveDone := s.httpServer, s.cancelBase, s.serveDone
	s.lifeMu.Unlock()

	s.stopErr = s.stop(ctx, srv, cancelBase, serveDone)
	close(s.stopDone)
	return s.stopErr
}

func (s *Server) stop(ctx context.Context, srv *http.Server, cancelBase context.CancelFunc, serveDone <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.ShutdownTimeout)
	defer cancel()

	// Streams have no end of their own; waiting for them is waiting for
	// the timeout.
	s.endStreams()
	var errs []error
	if srv != nil {
		if err := srv.Shutdown(ctx); err != nil {
			s.log.Warn("graceful shutdown timed out; closing connections", zap.Error(err))
			errs = append(errs, fmt.Errorf("webserver: graceful shutdown incomplete, connections force-closed: %w", err))
			cancelBase()
			if err := srv.Close(); err != nil {
				errs = append(errs, err)
			}
		}
		<-serveDone
		cancelBase()
	}

	// Handlers can outlive their connection (net/http does not wait for
	// them after Close), and requests may come through Handler() from an
	// embedding server. Refuse new ones and wait briefly for the rest.
	drained := s.active.close()
	timer := time.NewTimer(forceGrace)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
		errs = append(errs, fmt.Errorf("webserver: %d handler(s) still running after shutdown", s.active.running()))
	}
	s.log.Info("stopped")
	return errors.Join(errs...)
}
