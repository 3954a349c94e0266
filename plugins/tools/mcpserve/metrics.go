package mcpserve

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Instrument registers the server's gauge with reg:
// dsh_mcp_sessions_open, the MCP sessions open now (Streamable HTTP and
// stdio), read from the SDK at each scrape.
func (m *Server) Instrument(reg prometheus.Registerer) error {
	return reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "dsh_mcp_sessions_open",
		Help: "MCP sessions open now (Streamable HTTP and stdio).",
	}, func() float64 {
		n := 0
		for range m.server.Sessions() {
			n++
		}
		return float64(n)
	}))
}
