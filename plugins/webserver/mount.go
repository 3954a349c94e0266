package webserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"
)

// Mount is the effect of one Server.Mount call: a set of routes owned by a
// plugin, undone by Unmount when the plugin unloads.
type Mount struct {
	s        *Server
	owner    string
	routes   []Route
	handlers []echo.HandlerFunc // guarded versions of routes[i].Handler
	gate     *gate
	remove   sync.Once
}

// Owner is who mounted the routes.
func (m *Mount) Owner() string { return m.owner }

// Routes describes the mounted routes.
func (m *Mount) Routes() []RouteInfo {
	infos := make([]RouteInfo, len(m.routes))
	for i, r := range m.routes {
		infos[i] = RouteInfo{Owner: m.owner, Method: r.Method, Path: r.Path, Public: r.Public}
	}
	return infos
}

// Mount adds routes for owner, all or none: if any route is invalid or
// already mounted (by anyone, including another route in this call) nothing
// is published and the error names the conflicting owner.
func (s *Server) Mount(owner string, routes ...Route) (*Mount, error) {
	owner = strings.TrimSpace(owner)
	if owner == "" {
		return nil, errors.New("webserver: mount owner must not be empty")
	}
	if len(routes) == 0 {
		return nil, fmt.Errorf("webserver: %q mounted no routes", owner)
	}
	m := &Mount{s: s, owner: owner, gate: newGate()}
	for _, r := range routes {
		nr, err := r.normalize()
		if err != nil {
			return nil, fmt.Errorf("webserver: %q: %w", owner, err)
		}
		m.routes = append(m.routes, nr)
		m.handlers = append(m.handlers, labelRoute(nr.Path, streamRoute(nr, s.guard(m, nr))))
	}

	s.mountMu.Lock()
	defer s.mountMu.Unlock()
	if err := conflictsWith(m, append(slices.Clone(s.mounts), m)); err != nil {
		return nil, err
	}
	s.mounts = append(s.mounts, m)
	s.table.Store(buildTable(s.mounts, s.onError))
	s.log.Info("mounted", zap.String("owner", owner), zap.Int("routes", len(m.routes)))
	return m, nil
}

// conflictsWith checks m's routes against every route in mounts (which
// includes m itself, to catch duplicates within one call).
func conflictsWith(m *Mount, mounts []*Mount) error {
	for i, r := range m.routes {
		for _, other := range mounts {
			for j, o := range other.routes {
				if other == m && j == i {
					continue
				}
				if r.conflicts(o) {
					return &ConflictError{
						Owner: m.owner, Method: r.Method, Path: r.Path,
						ExistingOwner: other.owner, ExistingRoute: o.Method + " " + o.Path,
					}
				}
			}
		}
	}
	return nil
}

// Unmount removes the routes — new requests get 404 immediately — and then
// waits for this mount's in-flight requests to finish, for at most the
// server's DrainTimeout or ctx's deadline, whichever is sooner. A drain that
// times out returns an error saying how many requests were still running
// (they keep running; their plugin should cancel them). Calling Unmount
// again is safe: the routes are removed once, and the call waits for the
// drain again.
func (m *Mount) Unmount(ctx context.Context) error {
	m.remove.Do(m.s.unpublish(m))
	drained := m.gate.close()

	ctx, cancel := context.WithTimeout(ctx, m.s.cfg.DrainTimeout)
	defer cancel()
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
		n := m.gate.running()
		m.s.log.Warn("unmount drain timed out", zap.String("owner", m.owner), zap.Int("running", n))
		return fmt.Errorf("webserver: unmount %q: %d request(s) still running: %w", m.owner, n, ctx.Err())
	}
}

func (s *Server) unpublish(m *Mount) func() {
	return func() {
		s.mountMu.Lock()
		defer s.mountMu.Unlock()
		s.mounts = slices.DeleteFunc(s.mounts, func(x *Mount) bool { return x == m })
		s.table.Store(buildTable(s.mounts, s.onError))
		s.log.Info("unmounted", zap.String("owner", m.owner))
	}
}
