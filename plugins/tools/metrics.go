package tools

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Outcomes of a tool call besides an error's code.
const (
	// OutcomeOK is a call that succeeded.
	OutcomeOK = "ok"
	// OutcomeNotOK is a handler's own object with "ok": false.
	OutcomeNotOK = "not_ok"
)

// unknownToolLabel stands for a name no tool has: the caller chose it,
// so it is never a label.
const unknownToolLabel = "unknown"

// callMetrics are the registry's instruments.
type callMetrics struct {
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// Instrument registers the registry's call metrics with reg and starts
// counting every Call: dsh_tool_calls_total{tool,outcome} (outcome is ok,
// not_ok or the error's code) and dsh_tool_call_duration_seconds{tool,
// outcome}. A name no tool has counts as tool "unknown".
func (r *Registry) Instrument(reg prometheus.Registerer) error {
	m := &callMetrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dsh_tool_calls_total",
			Help: "Tool calls (MCP and every other transport), by tool and outcome: ok, not_ok or the error code.",
		}, []string{"tool", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dsh_tool_call_duration_seconds",
			Help:    "Time a tool call took, arguments' checks included, by tool and outcome.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"tool", "outcome"}),
	}
	for _, c := range []prometheus.Collector{m.calls, m.duration} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	r.metrics.Store(m)
	return nil
}

// observe counts one call.
func (m *callMetrics) observe(tool, outcome string, d time.Duration) {
	if outcome == CodeUnknownTool {
		tool = unknownToolLabel
	}
	m.calls.WithLabelValues(tool, outcome).Inc()
	m.duration.WithLabelValues(tool, outcome).Observe(d.Seconds())
}
