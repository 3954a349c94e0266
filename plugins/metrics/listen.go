package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"go.uber.org/zap"
)

// Listener serves GET /metrics alone, without a credential, on an address
// of its own (host.metrics.listen): one an operator keeps on a private
// network for the scraper. Anything else there is 404.
type Listener struct {
	srv  *http.Server
	ln   net.Listener
	done chan struct{}
}

// Listen binds addr and serves s's metrics on it until Close.
func (s *Service) Listen(ctx context.Context, addr string, log *zap.Logger) (*Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+Path, s.Handler())
	l := &Listener{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}, ln: ln, done: make(chan struct{})}
	go func() {
		defer close(l.done)
		if err := l.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics: serve failed", zap.Error(err))
		}
	}()
	a := ln.Addr()
	s.listening.Store(&a)
	log.Info("metrics: listening", zap.String("url", "http://"+ln.Addr().String()+Path))
	return l, nil
}

// Listening is the address the last Listen bound, or nil.
func (s *Service) Listening() net.Addr {
	if a := s.listening.Load(); a != nil {
		return *a
	}
	return nil
}

// Addr is the bound address.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Close stops serving, letting scrapes under way finish within ctx.
func (l *Listener) Close(ctx context.Context) error {
	err := l.srv.Shutdown(ctx)
	<-l.done
	return err
}
