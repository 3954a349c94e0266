package excalidraw

import (
	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/prometheus/client_golang/prometheus"
)

// SceneMetrics is the plugin's service.Observer and its collectors, for
// the benchmark of what metrics cost a write.
func SceneMetrics(hub *live.Hub) (service.Observer, []prometheus.Collector) {
	m := newSceneMetrics(hub)
	return m, m.collectors()
}
