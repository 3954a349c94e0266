// Package excalidraw is the Excalidraw plugin: scenes stored as portable
// .excalidraw files with revisions, the five agent tools, and the browser
// half's HTTP API.
//
// Its life in the host (contract section 7):
//
//  1. Provision: the config is normalized and clamped by the loader
//     against ConfigSchema; relative drawingsDir resolves against the
//     host's data directory.
//  2. The scene service opens the store and is provided as
//     "excalidrawScenes"; closing it is an effect.
//  3. The five tools are registered (it injects "tools"), each an effect.
//  4. A hub carries every commit (this process's, and other processes'
//     seen by a directory watcher) to open editors.
//  5. The HTTP routes (API, editor page, assets, event streams) live in a
//     webServer sub-scope, so a headless host keeps the store and tools
//     and serves no HTTP.
//
// Disposal undoes all of it, newest first.
package excalidraw

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/agenttools"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/oauth"
	"github.com/dshgo/dsh/plugins/excalidraw/quota"
	"github.com/dshgo/dsh/plugins/excalidraw/room"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/health"
	"github.com/dshgo/dsh/plugins/hostinfo"
	"github.com/dshgo/dsh/plugins/metrics"
	"github.com/dshgo/dsh/plugins/storage"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// ServiceName is the name the scene service is provided under.
const ServiceName = "excalidrawScenes"

// Version is the plugin's version, reported by /health.
const Version = "0.1.0"

// Config is the plugin's YAML config.
type Config struct {
	DrawingsDir   string  `json:"drawingsDir"`
	MaxSceneBytes int64   `json:"maxSceneBytes"`
	MaxElements   int     `json:"maxElements"`
	MaxFiles      int     `json:"maxFiles"`
	MaxTextLength int     `json:"maxTextLength"`
	History       History `json:"history"`
	Exports       Exports `json:"exports"`
	Files         Files   `json:"files"`
	OAuth         OAuth   `json:"oauth"`
}

// OAuth is the `oauth:` section: what anyone may register with the
// authorization server for remote MCP clients (dynamic client
// registration takes no credential).
type OAuth struct {
	RegistrationsPerHourPerAddress int `json:"registrationsPerHourPerAddress"`
	UngrantedClientTTLHours        int `json:"ungrantedClientTTLHours"`
	MaxUngrantedClients            int `json:"maxUngrantedClients"`
}

func (o OAuth) registration() oauth.Registration {
	return oauth.Registration{PerHourPerAddress: o.RegistrationsPerHourPerAddress,
		UngrantedTTL: time.Duration(o.UngrantedClientTTLHours) * time.Hour, MaxUngranted: o.MaxUngrantedClients}
}

// Files is the `files:` section: where the boards' and share links'
// files (PUT/GET /files/…) are kept, the largest one accepted, and the
// bounds of share links' anonymous uploads.
type Files struct {
	Dir          string     `json:"dir"`
	MaxFileBytes int64      `json:"maxFileBytes"`
	ShareLinks   ShareLinks `json:"shareLinks"`
}

// ShareLinks is `files.shareLinks:`, the bounds of what anyone may upload
// without a credential (share links' files): bytes per hour from one
// client address, and bytes kept in all.
type ShareLinks struct {
	BytesPerHourPerAddress int64 `json:"bytesPerHourPerAddress"`
	MaxTotalBytes          int64 `json:"maxTotalBytes"`
}

// Exports is the `exports:` section: where exported files go and how
// their links are signed.
type Exports struct {
	Dir            string `json:"dir"`
	Secret         string `json:"secret"`
	LinkTTLMinutes int    `json:"linkTTLMinutes"`
	MaxTTLHours    int    `json:"maxTTLHours"`
	KeepHours      int    `json:"keepHours"`
}

// History is the `history:` section: how much of each scene's journal is
// kept.
type History struct {
	MaxEntries    int   `json:"maxEntries"`
	MaxAgeDays    int   `json:"maxAgeDays"`
	MaxImageBytes int64 `json:"maxImageBytes"`
}

// ConfigSchema fills defaults and clamps every tunable.
var ConfigSchema = []byte(`{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "drawingsDir": {"type": "string", "minLength": 1, "default": "excalidraw/drawings",
      "description": "Where scenes are stored; relative to the host's data directory."},
    "maxSceneBytes": {"type": "integer", "minimum": 1024, "maximum": 268435456, "default": 33554432},
    "maxElements": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 10000},
    "maxFiles": {"type": "integer", "minimum": 0, "maximum": 64, "default": 64},
    "maxTextLength": {"type": "integer", "minimum": 1, "maximum": 1000000, "default": 100000},
    "history": {"type": "object", "additionalProperties": false, "default": {},
      "description": "Each scene's journal of commits (board_log, restore).",
      "properties": {
        "maxEntries": {"type": "integer", "minimum": 10, "maximum": 1000000, "default": 10000,
          "description": "Commits kept per scene; older ones are dropped."},
        "maxAgeDays": {"type": "integer", "minimum": 0, "maximum": 36500, "default": 90,
          "description": "Commits older than this are dropped (0: kept however old); the newest is always kept."},
        "maxImageBytes": {"type": "integer", "minimum": 0, "maximum": 268435456, "default": 8388608,
          "description": "A commit whose changed elements take more than this is journaled without them (it cannot be restored from)."}
      }},
    "exports": {"type": "object", "additionalProperties": false, "default": {},
      "description": "Files the export tool writes, behind signed links that expire (GET /exports/<id>).",
      "properties": {
        "dir": {"type": "string", "minLength": 1, "default": "exports",
          "description": "Where exports are written; relative to the host's data directory."},
        "secret": {"type": "string", "default": "",
          "description": "Signs export links (HMAC-SHA256); at least 32 characters. Empty: a key of this process, so links stop working when dsh restarts."},
        "linkTTLMinutes": {"type": "integer", "minimum": 1, "maximum": 10080, "default": 60,
          "description": "How long a link works when the caller does not say."},
        "maxTTLHours": {"type": "integer", "minimum": 1, "maximum": 720, "default": 168,
          "description": "The longest a caller may ask a link to work."},
        "keepHours": {"type": "integer", "minimum": 1, "maximum": 8760, "default": 24,
          "description": "Exported files older than this (and than maxTTLHours) are removed."}
      }},
    "files": {"type": "object", "additionalProperties": false, "default": {},
      "description": "The boards' and share links' files (PUT/GET /files/rooms/<board>/… with the board's access, /files/shareLinks/… open): opaque bytes kept verbatim.",
      "properties": {
        "dir": {"type": "string", "minLength": 1, "default": "excalidraw/files",
          "description": "Where files are kept; relative to the host's data directory."},
        "maxFileBytes": {"type": "integer", "minimum": 1024, "maximum": 67108864, "default": 4194304,
          "description": "The largest file accepted, in bytes (the host's http.maxBodyBytes bounds it too)."},
        "shareLinks": {"type": "object", "additionalProperties": false, "default": {},
          "description": "Share links' files are uploaded without a credential: each is written once (409 already_exists), and these bound them.",
          "properties": {
            "bytesPerHourPerAddress": {"type": "integer", "minimum": 65536, "maximum": 1099511627776, "default": 67108864,
              "description": "Bytes one client address (an IPv6 /64) may upload in a sliding hour, counted on every node; more is 429 rate_limited with retryAfterSec. At least maxFileBytes."},
            "maxTotalBytes": {"type": "integer", "minimum": 1048576, "maximum": 1125899906842624, "default": 2147483648,
              "description": "Bytes all share links' files may take together; an upload past it is 507 insufficient_storage."}
          }}
      }},
    "oauth": {"type": "object", "additionalProperties": false, "default": {},
      "description": "Dynamic client registration (POST /oauth/register), which anyone may call: remote MCP clients register there before a person approves them.",
      "properties": {
        "registrationsPerHourPerAddress": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 30,
          "description": "Clients one client address (an IPv6 /64) may register in a sliding hour, counted on every node; more is 429 rate_limited with retryAfterSec."},
        "ungrantedClientTTLHours": {"type": "integer", "minimum": 1, "maximum": 720, "default": 24,
          "description": "A client that has not completed a grant (got an access token) by then is forgotten; one that has is kept."},
        "maxUngrantedClients": {"type": "integer", "minimum": 10, "maximum": 1000000, "default": 1000,
          "description": "Ungranted clients kept at once; a registration past it evicts one (of the network that holds the most, never one a signed-in person is approving), so registration is never refused for it."}
      }}
  }
}`)

// Plugin is the Excalidraw plugin.
var Plugin = app.Plugin{
	Name:         "excalidraw",
	Inject:       []app.Dep{app.Need(tools.ServiceName), app.Maybe(hostinfo.ServiceName), app.Maybe(connection.ServiceName), app.Maybe(storage.ServiceName), app.Maybe(health.ServiceName), app.Maybe(metrics.ServiceName)},
	ConfigSchema: ConfigSchema,
	Apply:        apply,
}

func apply(ctx *app.Context, raw app.Config) error {
	var cfg Config
	if err := raw.Decode(&cfg); err != nil {
		return err
	}
	host, _ := app.Get[hostinfo.Info](ctx, hostinfo.ServiceName)
	st, _ := app.Get[*storage.Storage](ctx, storage.ServiceName)
	if st == nil {
		st = storage.Files(host.DataDir) // a host without the storage service
	}
	limits := LimitsOf(cfg)
	// Every commit reaches open editors through the hub: this process's own
	// at once (OnCommit), other processes' through the directory watcher.
	hub := live.NewHub(ctx.Logger())
	if _, err := ctx.Effect("close scene event hub", func(context.Context) error { hub.Close(); return nil }); err != nil {
		hub.Close()
		return err
	}
	if cfg.Exports.Secret != "" && len(cfg.Exports.Secret) < 32 {
		return fmt.Errorf("excalidraw: exports.secret must be at least 32 characters (or empty for a key of this process)")
	}
	if st.DB() != nil && cfg.Exports.Secret == "" {
		// A key of this process would sign links no other node takes.
		return fmt.Errorf("excalidraw: exports.secret is required with a shared database (the same 32+ characters on every node)")
	}
	// With a shared database everything below lives in it, so any node
	// serves any request; else in the data directory (OpenStores).
	stores, err := OpenStores(st, cfg, exports.Config{
		LinkTTL: time.Duration(cfg.Exports.LinkTTLMinutes) * time.Minute, MaxTTL: time.Duration(cfg.Exports.MaxTTLHours) * time.Hour,
		Keep: time.Duration(cfg.Exports.KeepHours) * time.Hour, Logger: ctx.Logger()}, ctx.Logger())
	if err != nil {
		return fmt.Errorf("excalidraw: %w", err)
	}
	dir, ex := stores.Drawings, stores.Exports
	if err := ctx.Go("sweep old exports", func(c context.Context) { ex.Run(c.Done()) }); err != nil {
		_ = stores.Close()
		return err
	}
	// Share links' uploads are counted per address where the bots'
	// quotas are: in the database, so every node counts them, or here.
	limiter, err := files.NewLimiter(stores.Windows(), cfg.Files.ShareLinks.BytesPerHourPerAddress, stores.Files.MaxFileBytes(), nil)
	if err != nil {
		_ = stores.Close()
		return fmt.Errorf("excalidraw: files: %w", err)
	}
	var fileStore files.Backend = files.Limited{Backend: stores.Files, Limiter: limiter}
	if _, err := ctx.Effect("close file store", func(context.Context) error { return fileStore.Close() }); err != nil {
		_ = fileStore.Close()
		return err
	}
	if err := useReadiness(ctx, stores); err != nil {
		return err
	}
	// Who may do what to which board: board metadata beside the scenes,
	// people and bots from the host's connection service (none when it
	// has no such service: then only the process itself calls).
	conn, _ := app.Get[*connection.Service](ctx, connection.ServiceName)
	meta := stores.Boards
	quotas := quota.NewIn(stores.Windows(), time.Now, ctx.Logger())
	var binder access.Binder
	if conn != nil && conn.Tokens() != nil {
		binder = tokenBinder{conn.Tokens()}
	}
	// Agents' writes show in the live rooms before they are stored
	// (room.Server.Preview), once the web part has opened the rooms.
	var previewing atomic.Pointer[room.Server]
	svc, err := service.New(service.Config{
		DrawingsDir: dir, Limits: limits, Logger: ctx.Logger(), Journal: cfg.History.journal(),
		OnCommit: func(h service.Head) { hub.Publish(httpapi.ChangeOf(h)) },
		OnPreview: func(board string, els []json.RawMessage) func(error) {
			if r := previewing.Load(); r != nil {
				return r.Preview(board, els)
			}
			return nil
		},
		Fonts: editor.Fonts(), Exports: ex, Guard: access.NewGuard(meta, binder, ownerOf(conn)),
		OpenStore: stores.OpenScenes, Quotas: quotas,
	})
	if err != nil {
		return err
	}
	if _, err := ctx.Effect("close scene service", func(context.Context) error { return svc.Close() }); err != nil {
		_ = svc.Close()
		return err
	}
	if err := ctx.Provide(ServiceName, svc); err != nil {
		return err
	}
	m, err := useMetrics(ctx, svc, hub, quotas)
	if err != nil {
		return err
	}
	if db := st.DB(); db != nil {
		if err := ctx.Go("hear other nodes' commits", func(c context.Context) { followNodes(c, db, svc, hub, ctx.Logger(), m.heard()) }); err != nil {
			return err
		}
	} else if _, err := ctx.Acquire("watch drawings for other writers", func() (app.Disposer, error) {
		w, err := live.Watch(dir, hub, func(c context.Context, name string) (live.Change, error) {
			h, err := svc.Head(c, name)
			return httpapi.ChangeOf(h), err
		}, ctx.Logger(), svc.CommittedHere)
		if err != nil {
			return nil, err
		}
		return func(context.Context) error { return w.Close() }, nil
	}); err != nil {
		return err
	}
	// The tools refuse an oversized call from its raw size and counts,
	// before any per-element work, under the same limits as the service.
	for _, t := range agenttools.Tools(svc, agenttools.WithLimits(func() scene.Limits { return limits }), agenttools.WithBaseURL(host.BaseURL)) {
		if err := tools.Use(ctx, t); err != nil {
			return err
		}
	}
	if err := tools.UseInstructions(ctx, agenttools.Instructions); err != nil {
		return err
	}
	// People and agents meet in a board's live room (Excalidraw's
	// collaboration protocol): its id and key come from a secret every
	// node shares.
	roomKeys, err := room.LoadKeys(context.Background(), stores.Doc(room.StateDoc))
	if err != nil {
		return fmt.Errorf("excalidraw: %w", err)
	}
	evidence := httpapi.NewEvidence()
	_, err = ctx.Inject([]app.Dep{app.Need(webserver.ServiceName)}, func(web *app.Context) error {
		stop := make(chan struct{})
		if err := webserver.Use(web, httpapi.Routes(httpapi.Options{
			Service: svc, Evidence: evidence, Hub: hub, Stop: stop, Version: Version, DrawingsDir: dir, Limits: limits,
			Assets: editor.Assets(), LoginCommand: host.LoginCommand, Exports: ex, Bots: bots(conn), People: people(conn),
			Files: fileStore,
		})...); err != nil {
			return err
		}
		// With a shared database the rooms of the nodes are one: what
		// happens in a room is relayed to the same room on the others.
		var relay *roomRelay
		if db := st.DB(); db != nil {
			relay = newRoomRelay(db, web.Logger())
		}
		ro := room.Options{Boards: svc, Keys: roomKeys, Hub: hub, Logger: web.Logger(),
			MaxMessageBytes: int64(limits.Effective().MaxSceneBytes) + 1<<20}
		if conn != nil {
			ro.Credential = conn.Principal
		}
		if relay != nil {
			ro.Relay = relay
		}
		rooms, err := room.New(ro)
		if err != nil {
			return err
		}
		if err := m.rooms(web, rooms.Present); err != nil {
			_ = rooms.Close()
			return err
		}
		if relay != nil {
			if err := web.Go("relay the live rooms to other nodes", relay.send); err != nil {
				_ = rooms.Close()
				return err
			}
			if err := web.Go("hear other nodes' live rooms", func(c context.Context) { relay.hear(c, rooms) }); err != nil {
				_ = rooms.Close()
				return err
			}
		}
		if err := webserver.Use(web, rooms.Routes(httpapi.Prefix+"/api")...); err != nil {
			_ = rooms.Close()
			return err
		}
		// Registered after the routes, so it runs before their unmount:
		// what the rooms hold is committed and their sockets end.
		if _, err := web.Effect("close live rooms", func(context.Context) error { return rooms.Close() }); err != nil {
			_ = rooms.Close()
			return err
		}
		// Undone first: no preview reaches rooms that are closing.
		previewing.Store(rooms)
		if _, err := web.Effect("stop previews in the live rooms", func(context.Context) error {
			previewing.CompareAndSwap(rooms, nil)
			return nil
		}); err != nil {
			previewing.CompareAndSwap(rooms, nil)
			return err
		}
		// The host's start page is the editor while the plugin is here.
		if err := webserver.UseStartPage(web, httpapi.Prefix+"/"); err != nil {
			return err
		}
		// Remote agents sign in with OAuth: the authorization server
		// mints connect tokens, so it needs the host's token file.
		if conn != nil && conn.Tokens() != nil {
			if err := useOAuth(web, svc, conn, st, cfg.OAuth.registration()); err != nil {
				return err
			}
		}
		// Registered after the routes, so it runs before their unmount:
		// open event streams end here instead of holding up the drain.
		_, err = web.Effect("end scene event streams", func(context.Context) error { close(stop); return nil })
		return err
	})
	return err
}

// useOAuth mounts the authorization server for remote MCP clients and
// makes every 401 point them at it.
func useOAuth(web *app.Context, svc *service.Service, conn *connection.Service, st *storage.Storage, reg oauth.Registration) error {
	srv, err := app.Get[*webserver.Server](web, webserver.ServiceName)
	if err != nil {
		return err
	}
	as, err := oauth.New(oauth.Options{Service: svc, Conn: conn, ClientsFile: st.Resolve(oauth.ClientsFile), State: st.State(),
		Logger: web.Logger(), Registration: reg})
	if err != nil {
		return err
	}
	if err := webserver.Use(web, as.Routes()...); err != nil {
		return err
	}
	_, err = web.Acquire("point 401s at the OAuth metadata", func() (app.Disposer, error) {
		undo := srv.SetBearerChallenge(as.Challenge)
		return func(context.Context) error { undo(); return nil }, nil
	})
	return err
}

// ownerOf is the host owner's person id, from the connection service.
func ownerOf(conn *connection.Service) func(context.Context) string {
	if conn == nil {
		return nil
	}
	return conn.OwnerID
}

// bots is the connection service as the token routes' Bots (nil: none).
func bots(conn *connection.Service) httpapi.Bots {
	if conn == nil || conn.Tokens() == nil {
		return nil
	}
	return conn
}

// people is the connection service as the members routes' People.
func people(conn *connection.Service) httpapi.People {
	if conn == nil || conn.Accounts() == nil {
		return nil
	}
	return conn
}

// tokenBinder binds the boards a bot creates to it, in the host's token
// file.
type tokenBinder struct{ ts *connection.TokenStore }

func (b tokenBinder) BindBoard(ctx context.Context, tokenID, board string) error {
	_, err := b.ts.Update(ctx, tokenID, func(r *connection.TokenRecord) error {
		if r.Grant == nil {
			return nil
		}
		g := access.GrantOf(r.Grant)
		if !slices.Contains(g.Created, board) {
			g.Created = append(slices.Clone(g.Created), board)
		}
		r.Grant = access.NewGrant(g)
		return nil
	})
	return err
}

// journal is the store's view of the history section.
func (h History) journal() store.JournalOptions {
	o := store.JournalOptions{MaxEntries: h.MaxEntries, MaxAge: time.Duration(h.MaxAgeDays) * 24 * time.Hour,
		MaxImageBytes: int(h.MaxImageBytes)}
	if h.MaxAgeDays == 0 {
		o.MaxAge = -1
	}
	if h.MaxImageBytes == 0 {
		o.MaxImageBytes = 1 // every commit's images are over it: none kept
	}
	return o
}
