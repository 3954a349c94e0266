package excalidrawcmd

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/oauth"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/storage"
)

// backupStores is the plugin's part of `dsh backup`: every scene's
// files under its locks, then the rest of the drawings directory (the
// boards and room documents, replaced by rename), the OAuth clients, and
// the files and exports (each file written whole and renamed in; the
// host leaves out temp and lock files).
func backupStores(ctx context.Context, b *cli.Backup) error {
	var cfg excalidraw.Config
	if err := b.Entry.Decode(&cfg); err != nil {
		return err
	}
	st := storage.Files(b.DataDir())
	drawings := st.Resolve(cfg.DrawingsDir)
	if err := backupScenes(ctx, b, cfg, drawings); err != nil {
		return err
	}
	if err := b.AddTree(drawings, store.SceneFile); err != nil {
		return err
	}
	if err := b.AddFile(st.Resolve(oauth.ClientsFile)); err != nil {
		return err
	}
	if err := b.AddTree(st.Resolve(cfg.Files.Dir), nil); err != nil {
		return err
	}
	return b.AddTree(st.Resolve(cfg.Exports.Dir), nil)
}

// backupScenes adds every scene of the drawings directory, if there is
// one, through the store's Snapshot.
func backupScenes(ctx context.Context, b *cli.Backup, cfg excalidraw.Config, drawings string) error {
	if !isDir(drawings) {
		return nil
	}
	lim := excalidraw.LimitsOf(cfg).Effective().ForReading()
	s, err := store.Open(store.Options{Dir: drawings, Codec: scene.Codec{Limits: lim}, MaxSceneBytes: lim.MaxSceneBytes})
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = s.Snapshot(ctx, func(rel string, size int64, mtime time.Time, r io.Reader) error {
		return b.Add(filepath.Join(drawings, filepath.FromSlash(rel)), size, mtime, r)
	})
	return err
}

// isDir reports whether dir is a directory.
func isDir(dir string) bool {
	info, err := os.Stat(dir)
	return err == nil && info.IsDir()
}
