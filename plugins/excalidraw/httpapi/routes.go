package httpapi

import (
	"io/fs"
	"net/http"

	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/thumbnail"
	"github.com/dshgo/dsh/plugins/webserver"
)

// Prefix is the plugin's URL namespace; the API lives under Prefix+"/api"
// and the editor's static files under Prefix+"/assets".
const Prefix = "/dsh-excalidraw"

// Options configures Routes.
type Options struct {
	// Service performs every scene operation. Required.
	Service *service.Service
	// Evidence receives editor lifecycle reports, per board; nil means a
	// fresh one (then only /health can see it).
	Evidence *Evidence
	// Version is the plugin version shown by /health.
	Version string
	// DrawingsDir is shown by /health to admins (the host's owner, a host
	// token), so they can find the files.
	DrawingsDir string
	// Limits is shown by /health as is (typically scene.Limits).
	Limits any
	// Hub streams scene commits to open editors
	// (GET /scenes/:name/events); nil means a hub nobody publishes to.
	Hub *live.Hub
	// Stop, when closed, ends every open event stream; close it before
	// unmounting the routes so the drain does not wait on them.
	Stop <-chan struct{}
	// Thumbnails tunes the board list's pictures (thumbnail.png): how
	// often one is redrawn, how many renders run at once.
	Thumbnails thumbnail.Options
	// Assets holds the editor's built page (index.html at its root, served
	// at Prefix+"/") and its static files (served under /assets/*); nil
	// makes the page explain how to build it and /assets/* 404.
	Assets fs.FS
	// LoginCommand is shown by the page when the session has ended (see
	// hostinfo.Info.LoginCommand); empty means "dsh login".
	LoginCommand string
	// Exports serves export links (GET /exports/:id); nil serves none.
	Exports *exports.Store
	// Bots mints, lists and revokes connect tokens (/api/mcp/tokens);
	// nil serves none.
	Bots Bots
	// People names the host's people for the members routes; nil serves
	// none.
	People People
	// Files keeps the boards' and share links' files (PUT, GET and HEAD
	// /files/rooms/{board}/… behind admission and the board's access,
	// /files/shareLinks/… open to everyone): a directory (files.Open) or
	// PostgreSQL (files.OpenPostgres); nil serves none.
	Files files.Backend
}

// Routes returns the plugin's routes for webserver.Mount. Only the export
// links are Public, since their signature is their credential, and the
// share links' files, which seed 001 leaves open; the host's
// connection service admits every other request, since these routes read
// and write the user's drawings. Their failures are the web server's to
// render (see contract).
func Routes(o Options) []webserver.Route {
	if o.Evidence == nil {
		o.Evidence = NewEvidence()
	}
	if o.Hub == nil {
		o.Hub = live.NewHub(nil)
	}
	h := scenes{svc: o.Service}
	b := boardRoutes{svc: o.Service}
	api := Prefix + "/api"
	serveAssets := assets(o.Assets)
	routes := []webserver.Route{
		{Method: http.MethodGet, Path: api + "/health", Handler: health(o)},
		{Method: http.MethodGet, Path: api + "/scenes", Handler: h.list},
		{Method: http.MethodPost, Path: api + "/scenes", Handler: h.create},
		{Method: http.MethodGet, Path: api + "/scenes/:name", Handler: h.read},
		{Method: http.MethodPut, Path: api + "/scenes/:name", Handler: h.save},
		{Method: http.MethodPost, Path: api + "/scenes/:name/merge", Handler: h.merge},
		{Method: http.MethodGet, Path: api + "/scenes/:name/events", Handler: SceneEvents(o.Service, o.Hub, o.Stop), Stream: true},
		{Method: http.MethodGet, Path: api + "/scenes/:name/log", Handler: h.log},
		{Method: http.MethodGet, Path: api + "/scenes/:name/render.png", Handler: h.render(service.RenderPNG)},
		{Method: http.MethodGet, Path: api + "/scenes/:name/render.svg", Handler: h.render(service.RenderSVG)},
		{Method: http.MethodGet, Path: api + "/scenes/:name/thumbnail.png", Handler: newThumbnails(o.Service, o.Thumbnails, o.Stop).get},
		{Method: http.MethodPost, Path: api + "/scenes/:name/restore", Handler: h.restore},
		{Method: http.MethodGet, Path: api + "/events", Handler: SceneListEvents(o.Service, o.Hub, o.Stop), Stream: true},
		{Method: http.MethodPost, Path: api + "/editor-status", Handler: editorStatus(o)},
		{Method: http.MethodGet, Path: api + "/boards", Handler: b.list},
		{Method: http.MethodPost, Path: api + "/boards", Handler: b.create},
		{Method: http.MethodPatch, Path: api + "/boards/:name", Handler: b.update},
		{Method: http.MethodDelete, Path: api + "/boards/:name", Handler: b.trash},
		{Method: http.MethodPost, Path: api + "/boards/:name/restore", Handler: b.restore},
		{Method: http.MethodPut, Path: api + "/boards/:name/folder", Handler: b.move},
		{Method: http.MethodGet, Path: api + "/folders", Handler: b.folders},
		{Method: http.MethodPost, Path: api + "/folders", Handler: b.createFolder},
		{Method: http.MethodGet, Path: api + "/me", Handler: me},
		{Method: http.MethodGet, Path: Prefix, Handler: toPage},
		{Method: http.MethodGet, Path: Prefix + "/", Handler: page(o.Assets, o.LoginCommand)},
		{Method: http.MethodGet, Path: Prefix + "/assets/*", Handler: serveAssets},
		{Method: http.MethodHead, Path: Prefix + "/assets/*", Handler: serveAssets},
	}
	if o.People != nil {
		m := members{svc: o.Service, people: o.People}
		routes = append(routes,
			webserver.Route{Method: http.MethodGet, Path: api + "/boards/:name/members", Handler: m.list},
			webserver.Route{Method: http.MethodPut, Path: api + "/boards/:name/members/:person", Handler: m.set})
	}
	if o.Bots != nil {
		t := tokens{svc: o.Service, bots: o.Bots}
		routes = append(routes,
			webserver.Route{Method: http.MethodPost, Path: api + "/mcp/tokens", Handler: t.mint},
			webserver.Route{Method: http.MethodGet, Path: api + "/mcp/tokens", Handler: t.list},
			webserver.Route{Method: http.MethodDelete, Path: api + "/mcp/tokens/:id", Handler: t.revoke})
	}
	if o.Exports != nil {
		serve := exportLink(o.Exports)
		routes = append(routes,
			webserver.Route{Method: http.MethodGet, Path: exports.PathPrefix + ":id", Handler: serve, Public: true},
			webserver.Route{Method: http.MethodHead, Path: exports.PathPrefix + ":id", Handler: serve, Public: true})
	}
	if o.Files != nil {
		routes = append(routes, fileRoutes(o.Service, o.Files)...)
	}
	for i := range routes {
		routes[i].Handler = contract(routes[i].Handler)
	}
	return routes
}
