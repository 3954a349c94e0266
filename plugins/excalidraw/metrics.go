package excalidraw

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/quota"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/metrics"
)

// sceneMetrics are the plugin's instruments, told of the scene service's
// work as its service.Observer. Labels are bounded: a commit's kind, an
// error's code, a render's format; never a board's name.
type sceneMetrics struct {
	commits        *prometheus.CounterVec
	commitDuration *prometheus.HistogramVec
	commitPhases   *prometheus.HistogramVec
	lockWaits      *prometheus.HistogramVec
	// lockAcquired and lockGaveUp are lockWaits' two series.
	lockAcquired, lockGaveUp prometheus.Observer
	conflicts                prometheus.Counter
	renders                  *prometheus.CounterVec
	renderDuration           *prometheus.HistogramVec
	subscribers              prometheus.GaugeFunc
	quotaRefusals            *prometheus.CounterVec
	// notificationLag is from a commit to this node's publishing it to
	// its editors from a notification (PostgreSQL only).
	notificationLag prometheus.Histogram
	// present counts the live rooms' sockets, once the rooms are open
	// (rooms).
	present    atomic.Pointer[func() int]
	presentNow prometheus.GaugeFunc
}

// useMetrics registers the plugin's metrics with the host's metrics
// service, as effects of the plugin's scope, and makes svc tell them of
// its commits and renders, and quotas of its refusals. A host without
// the service gets none (nil), and neither is observed at all.
func useMetrics(ctx *app.Context, svc *service.Service, hub *live.Hub, quotas *quota.Limiter) (*sceneMetrics, error) {
	m := newSceneMetrics(hub)
	ok, err := metrics.Use(ctx, m.collectors()...)
	if err != nil || !ok {
		return nil, err
	}
	svc.Observe(m)
	quotas.OnRefuse(func(rule string) { m.quotaRefusals.WithLabelValues(rule).Inc() })
	_, err = ctx.Effect("stop observing the scene service", func(context.Context) error {
		svc.Observe(nil)
		quotas.OnRefuse(nil)
		return nil
	})
	return m, err
}

// heard is what followNodes tells of each other node's commit it
// publishes: nil (nothing) without metrics.
func (m *sceneMetrics) heard() func(lag time.Duration) {
	if m == nil {
		return nil
	}
	return func(lag time.Duration) { m.notificationLag.Observe(max(lag, 0).Seconds()) }
}

// collectors are every instrument of m, to register.
func (m *sceneMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.commits, m.commitDuration, m.commitPhases, m.lockWaits, m.conflicts, m.renders, m.renderDuration, m.subscribers, m.quotaRefusals, m.notificationLag, m.presentNow}
}

func newSceneMetrics(hub *live.Hub) *sceneMetrics {
	m := &sceneMetrics{
		commits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dsh_excalidraw_commits_total",
			Help: "Scene writes that reached the store (kind create, update or save), by outcome: ok, unchanged, duplicate (a request id replayed) or the error code.",
		}, []string{"kind", "outcome"}),
		commitDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dsh_excalidraw_commit_duration_seconds",
			Help:    "Time a scene write spent in the store (lock, write, fsync, rename, journal; a group commit's wait included), by kind.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"kind"}),
		commitPhases: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dsh_excalidraw_commit_phase_seconds",
			Help:    "Time a phase of a commit took. The file store's: lock (the wait for the scene), write, fsync, rename, journal; PostgreSQL's: begin (a pooled connection, BEGIN), lock (the scene's row lock), read, write (the commit's statements), commit.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}, []string{"phase"}),
		lockWaits: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dsh_excalidraw_lock_wait_seconds",
			Help:    "Time writers waited for a scene's lock (the file store's queue and lock file, PostgreSQL's row lock), by outcome: acquired, or gave_up when the writer's deadline ended the wait (scene_busy).",
			Buckets: []float64{.0001, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"outcome"}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "dsh_excalidraw_revision_conflicts_total",
			Help: "Scene writes refused because the scene moved on past the revision they expected (revision_conflict).",
		}),
		renders: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dsh_excalidraw_renders_total",
			Help: "Scene renders, by format (png, svg) and outcome: ok or the error code.",
		}, []string{"format", "outcome"}),
		renderDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dsh_excalidraw_render_duration_seconds",
			Help:    "Time a scene render took, drawing and encoding, by format.",
			Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"format"}),
		subscribers: prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "dsh_excalidraw_live_subscribers",
			Help: "Open live event streams (editors and scene lists) on this node.",
		}, func() float64 { return float64(hub.Subscribers()) }),
		quotaRefusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dsh_excalidraw_quota_refusals_total",
			Help: "Bots' uses refused past an hourly limit (rate_limited), by limit (createBoard, createFolder).",
		}, []string{"limit"}),
		notificationLag: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "dsh_excalidraw_notification_lag_seconds",
			Help:    "From a commit (by the committing node's clock) to this node publishing it to its live editors from a PostgreSQL notification: other nodes' commits, and rarely its own when the notification comes first.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}),
	}
	m.lockAcquired, m.lockGaveUp = m.lockWaits.WithLabelValues("acquired"), m.lockWaits.WithLabelValues("gave_up")
	m.presentNow = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "dsh_excalidraw_live_present",
		Help: "Sockets in this node's live collaboration rooms (people present on boards).",
	}, func() float64 {
		if n := m.present.Load(); n != nil {
			return float64((*n)())
		}
		return 0
	})
	return m
}

// rooms makes the presence gauge count the rooms' sockets for as long
// as web (the scope that opened them) lives; nothing without metrics.
func (m *sceneMetrics) rooms(web *app.Context, present func() int) error {
	if m == nil {
		return nil
	}
	m.present.Store(&present)
	_, err := web.Effect("stop counting presence", func(context.Context) error { m.present.Store(nil); return nil })
	return err
}

// Committed counts one store write.
func (m *sceneMetrics) Committed(kind, outcome string, d time.Duration) {
	m.commits.WithLabelValues(kind, outcome).Inc()
	m.commitDuration.WithLabelValues(kind).Observe(d.Seconds())
	if outcome == string(sceneerr.RevisionConflict) {
		m.conflicts.Inc()
	}
}

// Phase times one phase of a commit; the wait for the scene's lock is
// also a lock wait (as is one that gave up, which is no phase).
func (m *sceneMetrics) Phase(phase string, d time.Duration) {
	switch phase {
	case store.PhaseLockGaveUp:
		m.lockGaveUp.Observe(d.Seconds())
		return
	case store.PhaseLock:
		m.lockAcquired.Observe(d.Seconds())
	}
	m.commitPhases.WithLabelValues(phase).Observe(d.Seconds())
}

// Conflicted counts a write refused from the scene's head.
func (m *sceneMetrics) Conflicted() { m.conflicts.Inc() }

// Rendered counts one render.
func (m *sceneMetrics) Rendered(format string, d time.Duration, err error) {
	switch format {
	case "", "png":
		format = "png"
	case "svg":
	default:
		format = "other" // refused; the caller chose the word
	}
	m.renders.WithLabelValues(format, service.Outcome(err)).Inc()
	m.renderDuration.WithLabelValues(format).Observe(d.Seconds())
}
