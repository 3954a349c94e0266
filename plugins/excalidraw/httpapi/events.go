package httpapi

import (
	"encoding/json"
	"errors"
	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
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
		UpdatedBy: h.UpdatedBy, UpdatedByName: h.UpdatedByName, At: h.UpdatedAt,
	}
}

// SceneEvents is GET /scenes/:name/events: a server-sent event stream of
// the scene's revisions. Each event is `event: revision`, `id:` the
// revision and `data:` a live.Change; a client fetches the scene itself
// when the revision is newer than the one it has.
//
// With `?since=N` (the revision the page shows) the stream sends deltas
// instead (service.Delta): each new revision as `event: delta` whose data
// is the revision record (a live.Change's fields) with `from` (the
// revision it starts from: the one the stream sent before, or N) and
// `elements` (each changed element whole, deletions as isDeleted
// tombstones), `files` and `appState` when a commit changed them, and
// `forced` (forced saves in the range). Revisions the hub coalesced are
// one delta from the last one sent. When there is no delta to send (the
// journal does not cover the range, over service.MaxDeltaElements
// changed, an element dropped from the file) the event is `resync` with
// the head as a live.Change: the page reads the scene. The first event is
// the delta from N (a `revision` of the head when N is the head).
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
			return err
		}
		sub, err := subscribe(func() (*live.Subscription, error) { return hub.Subscribe(name) })
		if err != nil {
			return err
		}
		defer sub.Close()
		head, err := svc.Head(c.Request().Context(), name)
		if err != nil {
			return err
		}
		since, deltas := sinceParam(c)
		res := startStream(c)
		sent := head.Revision
		if !deltas || since == head.Revision {
			if writeChange(res, ChangeOf(head)) != nil {
				return nil
			}
		} else {
			sent = since
			if sent, err = writeDelta(c, res, svc, name, sent, head); err != nil {
				return nil
			}
		}
		pump(c, sub, stop, heartbeat, func(ch live.Change) error {
			// The head may already include what the hub sends next.
			if ch.Revision <= sent {
				return nil
			}
			// Access may have been taken away meanwhile: the stream ends.
			if err := svc.May(c.Request().Context(), name, access.Read); err != nil {
				return err
			}
			if deltas {
				sent, err = writeDelta(c, res, svc, name, sent, service.Head{})
				return err
			}
			sent = ch.Revision
			return writeChange(res, ch)
		})
		return nil
	}
}

// sinceParam is the stream's `since` query parameter: the revision the
// page shows, which asks for deltas (see SceneEvents). Absent or not a
// positive number: no deltas.
func sinceParam(c echo.Context) (int64, bool) {
	v, err := strconv.ParseInt(c.QueryParam("since"), 10, 64)
	if err != nil || v <= 0 {
		return 0, false
	}
	return v, true
}

// writeDelta sends the page the change from revision from to the
// scene's head as one `delta` event (id: the head's revision), or a
// `resync` event (data: the head as a live.Change) when there is no
// delta to send, and returns the revision the page now has or will
// read. head is the head already read, if any, for a resync the delta
// cannot read. An error means the stream is over.
func writeDelta(c echo.Context, res *echo.Response, svc *service.Service, name string, from int64, head service.Head) (int64, error) {
	d, err := svc.Delta(c.Request().Context(), name, from)
	if err != nil {
		if head.Revision == 0 {
			// Deleted or unreadable meanwhile: the next commit tries again.
			return from, nil
		}
		return head.Revision, writeEvent(res, "resync", strconv.FormatInt(head.Revision, 10), changeJSON(ChangeOf(head)))
	}
	if d.Revision <= from && !d.Resync {
		return from, nil
	}
	id := strconv.FormatInt(d.Revision, 10)
	if d.Resync {
		ch := ChangeOf(d.Head)
		return d.Revision, writeEvent(res, "resync", id, changeJSON(ch))
	}
	data, err := d.JSON() // encoded once for all the board's streams
	if err != nil {
		return from, err
	}
	return d.Revision, writeEvent(res, "delta", id, data)
}

// changeJSON is the JSON of a change (which always encodes).
func changeJSON(v live.Change) []byte {
	data, _ := json.Marshal(v)
	return data
}

// SceneListEvents is GET /events: a server-sent event stream for a scene
// list. It subscribes, then sends the whole listing as one `scenes` event
// (data: {"scenes": [...]}, the body of GET /scenes), then a `revision`
// event for every commit to any scene from then on — a new scene
// included. So a list that (re)connects is complete and current without
// polling, whatever it missed while away. It ends like SceneEvents.
func SceneListEvents(svc *service.Service, hub *live.Hub, stop <-chan struct{}) echo.HandlerFunc {
	return sceneListEvents(svc, hub, stop, heartbeatInterval)
}

func sceneListEvents(svc *service.Service, hub *live.Hub, stop <-chan struct{}, heartbeat time.Duration) echo.HandlerFunc {
	return func(c echo.Context) error {
		sub, err := subscribe(hub.SubscribeAll)
		if err != nil {
			return err
		}
		defer sub.Close()
		rows, err := svc.List(c.Request().Context())
		if err != nil {
			return err
		}
		// What the listing already shows is not sent again.
		sent := make(map[string]int64, len(rows))
		for _, r := range rows {
			sent[r.Name] = r.Revision
		}
		res := startStream(c)
		data, err := json.Marshal(listBody{Scenes: rows})
		if err != nil {
			return err
		}
		if writeEvent(res, "scenes", "", data) != nil {
			return nil
		}
		pump(c, sub, stop, heartbeat, func(ch live.Change) error {
			if ch.Revision <= sent[ch.Name] || svc.May(c.Request().Context(), ch.Name, access.Read) != nil {
				return nil
			}
			sent[ch.Name] = ch.Revision
			return writeChange(res, ch)
		})
		return nil
	}
}

// subscribe opens a hub subscription, turning a closed hub into the
// scene error the page understands.
func subscribe(open func() (*live.Subscription, error)) (*live.Subscription, error) {
	sub, err := open()
	if errors.Is(err, live.ErrClosed) {
		return nil, sceneerr.New(sceneerr.IOError, "scene events are shutting down")
	}
	return sub, err
}

// startStream writes the headers of an event stream.
func startStream(c echo.Context) *echo.Response {
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
	return res
}

// pump sends what sub delivers through send, with a heartbeat comment
// while idle, until the client goes away, stop is closed, the
// subscription ends (the hub closed) or a write fails.
func pump(c echo.Context, sub *live.Subscription, stop <-chan struct{}, heartbeat time.Duration, send func(live.Change) error) {
	ctx := c.Request().Context()
	res := c.Response()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-stop:
			return
		case _, open := <-sub.Ready():
			if !open {
				return
			}
			for _, ch := range sub.Take() {
				if send(ch) != nil {
					return
				}
			}
		case <-tick.C:
			if writeRaw(res, []byte(": ping\n\n")) != nil {
				return
			}
		}
	}
}

// writeChange writes one revision event (id: the revision) and flushes
// it. An error means the stream is over (the client is gone).
func writeChange(res *echo.Response, ch live.Change) error {
	data, err := json.Marshal(ch)
	if err != nil {
		return err
	}
	return writeEvent(res, "revision", strconv.FormatInt(ch.Revision, 10), data)
}

// writeEvent writes one event of the given type (and id, unless empty)
// whose data is one line of JSON, and flushes it.
func writeEvent(res *echo.Response, event, id string, data []byte) error {
	msg := make([]byte, 0, len(data)+64)
	msg = append(msg, "event: "...)
	msg = append(msg, event...)
	if id != "" {
		msg = append(msg, "\nid: "...)
		msg = append(msg, id...)
	}
	msg = append(msg, "\ndata: "...)
	msg = append(msg, data...)
	msg = append(msg, "\n\n"...)
	return writeRaw(res, msg)
}

// writeRaw writes and flushes msg. It flushes the underlying writer through a
// ResponseController rather than calling echo's Flush, which panics on a
// writer that cannot flush (possible when the host's handler is embedded
// in another server); such a stream simply ends.
func writeRaw(res *echo.Response, msg []byte) error {
	if _, err := res.Write(msg); err != nil {
		return err
	}
	return http.NewResponseController(res.Writer).Flush()
}
