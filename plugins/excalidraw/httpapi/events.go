package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

// heartbeatInterval keeps idle streams visibly alive, so proxies and the
// browser do not time them out and a dead client is noticed by a failed
// write.
const heartbeatInterval = 15 * time.Second

// ChangeOf is a scene's head as a live change: what the commit hook and
// the directory watcher publish, and what SceneEvents sends first.
func ChangeOf(h service.Head) live.Change {
	return live.Change{
		Name: h.Name, Revision: h.Revision, SHA256: h.SHA256, ElementCount: h.ElementCount,
		UpdatedBy: h.UpdatedBy, At: h.UpdatedAt,
	}
}

// SceneEvents is GET /scenes/:name/events: a server-sent event stream of
// the scene's revisions. Each event is `event: revision`, `id:` the
// revision and `data:` a live.Change; the browser fetches the scene itself
// when the revision is newer than the one it shows.
//
// It subscribes before reading the head and sends the head first, so a
// commit that lands between the page's GET and this request is always
// seen: either in the head or as the next event. The stream ends when the
// client goes away, stop is closed (the routes are being unmounted) or the
// hub is closed (the plugin is being disposed), which lets the web
// server's unmount drain finish promptly. A nil stop never fires.
func SceneEvents(svc *service.Service, hub *live.Hub, stop <-chan struct{}) echo.HandlerFunc {
	return sceneEvents(svc, hub, stop, heartbeatInterval)
}

func sceneEvents(svc *service.Service, hub *live.Hub, stop <-chan struct{}, heartbeat time.Duration) echo.HandlerFunc {
	return func(c echo.Context) error {
		name, err := nameParam(c)
		if err != nil {
			return fail(c, err)
		}
		ctx := c.Request().Context()
		sub, err := hub.Subscribe(name)
		if errors.Is(err, live.ErrClosed) {
			return fail(c, sceneerr.New(sceneerr.IOError, "scene events are shutting down"))
		}
		if err != nil {
			return fail(c, err)
		}
		defer sub.Close()
		head, err := svc.Head(ctx, name)
		if err != nil {
			return fail(c, err)
		}

		res := c.Response()
		h := res.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Accel-Buffering", "no")
		h.Set("X-Content-Type-Options", "nosniff")
		// The stream outlives any per-request write timeout; servers
		// without one (ours has none) report ErrNotSupported or nothing.
		_ = http.NewResponseController(res.Writer).SetWriteDeadline(time.Time{})
		res.WriteHeader(http.StatusOK)

		sent := head.Revision
		if writeChange(res, ChangeOf(head)) != nil {
			return nil
		}
		tick := time.NewTicker(heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-stop:
				return nil
			case ch, open := <-sub.C():
				if !open {
					return nil
				}
				// The head may already include what the hub sends next.
				if ch.Revision <= sent {
					continue
				}
				sent = ch.Revision
				if writeChange(res, ch) != nil {
					return nil
				}
			case <-tick.C:
				if send(res, []byte(": ping\n\n")) != nil {
					return nil
				}
			}
		}
	}
}

// writeChange writes one revision event and flushes it. An error means
// the stream is over (the client is gone).
func writeChange(res *echo.Response, ch live.Change) error {
	data, err := json.Marshal(ch)
	if err != nil {
		return err
	}
	msg := make([]byte, 0, len(data)+64)
	msg = append(msg, "event: revision\nid: "...)
	msg = strconv.AppendInt(msg, ch.Revision, 10)
	msg = append(msg, "\ndata: "...)
	msg = append(msg, data...)
	msg = append(msg, "\n\n"...)
	return send(res, msg)
}

// send writes and flushes msg. It flushes the underlying writer through a
// ResponseController rather than calling echo's Flush, which panics on a
// writer that cannot flush (possible when the host's handler is embedded
// in another server); such a stream simply ends.
func send(res *echo.Response, msg []byte) error {
	if _, err := res.Write(msg); err != nil {
		return err
	}
	return http.NewResponseController(res.Writer).Flush()
}
