package excalidraw

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/oauth"
	"github.com/dshgo/dsh/plugins/excalidraw/room"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/pgstore"
	"github.com/dshgo/dsh/plugins/storage"
)

// Stores are the plugin's stores on one host Storage: in the shared
// database, so any node serves any request, or in the data directory.
// OpenStores is the one place the plugin chooses between them; the
// plugin's start and `dsh store migrate` both open their stores here.
type Stores struct {
	// Storage is where they are.
	Storage *storage.Storage
	// Drawings is the drawings directory (the scene files, and the
	// boards file beside them, when Storage is files).
	Drawings string
	Files    files.Backend
	Exports  *exports.Store
	Boards   *boards.Store

	log *zap.Logger
}

// StateDocs are the plugin's state documents, by their shared names, as
// `dsh store migrate` copies them. OAuth codes live minutes and are not
// copied.
var StateDocs = []string{boards.StateDoc, oauth.ClientsDoc, room.StateDoc}

// OpenStores opens cfg's stores on st; close them with Close. ex tunes
// the exports beyond their directory and secret (link lifetimes,
// retention, logger).
func OpenStores(st *storage.Storage, cfg Config, ex exports.Config, log *zap.Logger) (*Stores, error) {
	if log == nil {
		log = zap.NewNop()
	}
	s := &Stores{Storage: st, Drawings: st.Resolve(cfg.DrawingsDir), log: log}
	if err := os.MkdirAll(filepath.Dir(s.Drawings), 0o700); err != nil {
		return nil, fmt.Errorf("excalidraw: drawings dir: %w", err)
	}
	ex.Dir, ex.Secret = st.Resolve(cfg.Exports.Dir), []byte(cfg.Exports.Secret)
	fileCfg := files.Config{Dir: st.Resolve(cfg.Files.Dir), MaxFileBytes: cfg.Files.MaxFileBytes, MaxShareLinkBytes: cfg.Files.ShareLinks.MaxTotalBytes}
	var err error
	if db := st.DB(); db != nil {
		s.Exports, err = exports.OpenPostgres(db.Pool, ex)
		if err == nil {
			s.Files, err = files.OpenPostgres(db.Pool, fileCfg)
		}
	} else {
		s.Exports, err = exports.Open(ex)
		if err == nil {
			s.Files, err = files.Open(fileCfg)
		}
	}
	if err != nil {
		return nil, err
	}
	s.Boards = boards.Open(boards.File(s.Drawings), boards.Options{Logger: log, State: st.State()})
	return s, nil
}

// OpenScenes opens the scene store with what the scene service (or a
// migration) gives it.
func (s *Stores) OpenScenes(p service.StoreParams) (store.Backend, error) {
	if db := s.Storage.DB(); db != nil {
		return pgstore.Open(context.Background(), pgstore.Options{Pool: db.Pool, Codec: p.Codec, Now: p.Now,
			Journal: p.Journal, MaxSceneBytes: p.MaxSceneBytes, Logger: p.Logger, Phases: p.Phases})
	}
	return store.Open(store.Options{Dir: s.Drawings, Codec: p.Codec, MaxSceneBytes: p.MaxSceneBytes,
		Journal: p.Journal, Logger: p.Logger, Now: p.Now, Phases: p.Phases})
}

// Doc is one of the plugin's state documents (StateDocs, and OAuth's
// codes) by its shared name.
func (s *Stores) Doc(name string) statefile.Doc {
	switch name {
	case boards.StateDoc:
		return s.Storage.Doc(name, boards.File(s.Drawings), name+" file")
	case oauth.ClientsDoc:
		return s.Storage.Doc(name, oauth.ClientsFile, name+" file")
	case room.StateDoc:
		return s.Storage.Doc(name, filepath.Join(s.Drawings, store.MetaDir, room.FileName), "room secret file")
	}
	panic(fmt.Sprintf("excalidraw: no state document %q", name))
}

// Windows are the rate-limit windows share links and bots' quotas count
// in: the database's (every node counts), else this process's.
func (s *Stores) Windows() statefile.Windows { return s.Storage.Windows() }

// Close closes the file store (the exports need no closing; the database
// is the host's).
func (s *Stores) Close() error { return s.Files.Close() }

// LimitsOf is cfg's scene limits.
func LimitsOf(cfg Config) scene.Limits {
	return scene.Limits{MaxSceneBytes: cfg.MaxSceneBytes, MaxElements: cfg.MaxElements, MaxFiles: cfg.MaxFiles, MaxTextLength: cfg.MaxTextLength}
}
