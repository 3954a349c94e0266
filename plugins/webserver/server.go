package webserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
)

// Server is the webServer service. Create it with New; mount routes with
// Mount at any time, before or after Start.
type Server struct {
	cfg       Config
	log       *zap.Logger
	admission func() connection.Admitter

	outer   *echo.Echo            // built once in New, never changed
	onError echo.HTTPErrorHandler // renders every error, outer and inner
	handler http.Handler          // outer, plus server-wide in-flight tracking
	active  *gate                 // every request, for Shutdown
	table   atomic.Pointer[routeTable]
	metrics metricsState                 // request metrics, once Instrument (metrics.go)
	tracer  atomic.Pointer[trace.Tracer] // request spans, once Trace (tracing.go)

	// streamsEnded is cancelled when shutdown begins; event streams'
	// request contexts derive from it (see streams.go).
	streamsEnded context.Context
	endStreams   context.CancelFunc

	// challenge adds parameters to a 401's WWW-Authenticate (an OAuth
	// protected resource's resource_metadata); see SetBearerChallenge.
	challenge atomic.Pointer[func(*http.Request) string]
	// start are the start pages plugins offer (start.go).
	start startPages

	mountMu sync.Mutex // serialises table rebuilds
	mounts  []*Mount

	lifeMu     sync.Mutex
	httpServer *http.Server
	listener   net.Listener
	cancelBase context.CancelFunc
	serveDone  chan struct{}
	stopDone   chan struct{} // non-nil once Shutdown began; closed when it ends
	stopErr    error         // written before stopDone is closed
}

// New builds a Server. admission is consulted on every request to a
// non-public route; a nil func, or one returning nil, makes those routes
// fail closed with 503 admission_unavailable. A nil log means zap.NewNop().
func New(cfg Config, log *zap.Logger, admission func() connection.Admitter) *Server {
	if log == nil {
		log = zap.NewNop()
	}
	log = log.Named("webserver")
	s := &Server{cfg: cfg.withDefaults(), log: log, admission: admission, active: newGate()}
	s.streamsEnded, s.endStreams = context.WithCancel(context.Background())
	s.onError = errorHandler(log, s.cfg.LoginCommand, s.bearerChallenge)
	s.table.Store(buildTable(nil, s.onError))

	e := newRouter(s.onError)
	e.Use(middleware.RequestID())
	e.Use(s.noteRequests)
	e.Use(s.observeRequests)
	e.Use(accessLog(log.Named("access")))
	e.Use(recoverPanics(log))
	e.Use(bodyLimit(s.cfg.MaxBodyBytes))
	// One catch-all route, for every method, hands off to the current
	// routing table. RouteNotFound catches methods echo has no slot for.
	e.Any("/*", s.dispatch)
	e.RouteNotFound("/*", s.dispatch)
	s.outer = e
	s.handler = http.HandlerFunc(s.serveHTTP)
	return s
}

// Handler is the complete outer handler, for tests or for embedding in
// another server. Requests through it are tracked like served ones.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.active.enter() {
		w.Header().Set("Connection", "close")
		_ = writeError(w, problem{status: http.StatusServiceUnavailable, code: CodeShuttingDown, message: "the server is shutting down"})
		return
	}
	defer s.active.leave()
	w, r, release := s.withStreamEnd(w, r)
	defer release()
	s.outer.ServeHTTP(w, r)
}

// dispatch serves a request from whichever routing table is current. The
// table is loaded once, so a request is routed consistently even if a
// mount changes mid-flight.
func (s *Server) dispatch(c echo.Context) error {
	s.table.Load().router.ServeHTTP(c.Response(), c.Request())
	return nil
}

// Routes lists the mounted routes, sorted by path, method and owner.
func (s *Server) Routes() []RouteInfo {
	return append([]RouteInfo(nil), s.table.Load().infos...)
}

// Start binds the listener — synchronously, so a busy port is an error here
// rather than a log line later — and serves in a goroutine. ctx bounds only
// the bind; stopping the server is Shutdown's job.
func (s *Server) Start(ctx context.Context) error {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	if s.stopDone != nil {
		return errors.New("webserver: server was shut down")
	}
	if s.listener != nil {
		return errors.New("webserver: already started")
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("webserver: listen on %s: %w", s.cfg.Listen, err)
	}
	// Request contexts derive from baseCtx, so cancelling it at forced
	// shutdown ends long-lived streams (SSE) that wait on r.Context().
	baseCtx, cancel := context.WithCancel(context.Background())
	s.httpServer = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
		ErrorLog:          zap.NewStdLog(s.log.Named("http")),
	}
	s.listener, s.cancelBase, s.serveDone = ln, cancel, make(chan struct{})
	go s.serve(s.httpServer, ln, s.serveDone)
	s.log.Info("listening", zap.String("url", s.urlLocked()))
	return nil
}

func (s *Server) serve(srv *http.Server, ln net.Listener, done chan<- struct{}) {
	defer close(done)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		s.log.Error("serve failed", zap.Error(err))
	}
}

// Addr is the bound address, or nil before Start.
func (s *Server) Addr() net.Addr {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	if s.listener == nil {
		return nil
	}
	return s.listener.Addr()
}

// URL is the base URL a local client should use, e.g.
// "http://127.0.0.1:7420", or "" before Start. A wildcard listen address is
// reported as loopback, since that is what is reachable from this machine.
func (s *Server) URL() string {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	return s.urlLocked()
}

// PublicURL is the base URL of the links the server hands out to
// people: the configured public URL (a balancer's, with no trailing
// slash), else URL.
func (s *Server) PublicURL() string {
	if u := strings.TrimRight(s.cfg.PublicURL, "/"); u != "" {
		return u
	}
	return s.URL()
}

func (s *Server) urlLocked() string {
	host, port, ok := s.hostPortLocked()
	if !ok {
		return ""
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Origins are the browser origins this server is reachable at locally: its
// URL plus the localhost spelling. Pass them to connection.Service.SetOrigins.
func (s *Server) Origins() []string {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	host, port, ok := s.hostPortLocked()
	if !ok {
		return nil
	}
	origins := []string{"http://" + net.JoinHostPort(host, port)}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		origins = append(origins, "http://"+net.JoinHostPort("localhost", port))
	}
	return origins
}

func (s *Server) hostPortLocked() (host, port string, ok bool) {
	if s.listener == nil {
		return "", "", false
	}
	tcp, isTCP := s.listener.Addr().(*net.TCPAddr)
	if !isTCP {
		return "", "", false
	}
	ip := tcp.IP
	switch {
	case ip == nil || ip.Equal(net.IPv4zero):
		ip = net.IPv4(127, 0, 0, 1)
	case ip.Equal(net.IPv6unspecified):
		ip = net.IPv6loopback
	}
	return ip.String(), strconv.Itoa(tcp.Port), true
}

// SetBearerChallenge makes every 401 carry fn's parameters in its
// WWW-Authenticate header after `Bearer realm="dsh"` (for example
// `resource_metadata="…"`, which tells an MCP client where to start
// OAuth). It returns the function that takes them away again; a plugin
// registers that as an effect.
func (s *Server) SetBearerChallenge(fn func(*http.Request) string) (undo func()) {
	p := &fn
	s.challenge.Store(p)
	return func() { s.challenge.CompareAndSwap(p, nil) }
}

func (s *Server) bearerChallenge(r *http.Request) string {
	if p := s.challenge.Load(); p != nil {
		return (*p)(r)
	}
	return ""
}
