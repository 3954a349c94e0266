package excalidrawcmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/oauth"
	"github.com/dshgo/dsh/plugins/excalidraw/room"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/storage"
)

// backupStores is the plugin's part of `dsh backup`. Its share of the
// backup's moment: every scene's files (store.Freeze: each scene's locks
// held while its files are opened) and its state documents (the boards,
// the rooms' secret, the OAuth clients: each under its lock). After the
// moment it copies those, then the rest of the drawings directory, the
// files and the exports (each file written whole and renamed in; the
// host leaves out temp and lock files), which are of the copy's time.
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
	for _, doc := range []string{boards.File(drawings), filepath.Join(drawings, store.MetaDir, room.FileName), st.Resolve(oauth.ClientsFile)} {
		if err := b.AddDoc(doc); err != nil {
			return err
		}
	}
	b.Then(func() error {
		if err := b.AddTree(drawings, store.SceneFile); err != nil {
			return err
		}
		if err := b.AddTree(st.Resolve(cfg.Files.Dir), nil); err != nil {
			return err
		}
		return b.AddTree(st.Resolve(cfg.Exports.Dir), nil)
	})
	return nil
}

// backupScenes takes the moment of every scene of the drawings
// directory, if there is one (store.Freeze), and copies it after.
func backupScenes(ctx context.Context, b *cli.Backup, cfg excalidraw.Config, drawings string) error {
	if !isDir(drawings) {
		return nil
	}
	lim := excalidraw.LimitsOf(cfg).Effective().ForReading()
	s, err := store.Open(store.Options{Dir: drawings, Codec: scene.Codec{Limits: lim}, MaxSceneBytes: lim.MaxSceneBytes})
	if err != nil {
		return err
	}
	b.Cleanup(func() { s.Close() })
	m, err := s.Freeze(ctx)
	if err != nil {
		return err
	}
	b.Cleanup(m.Close)
	if !m.Whole() {
		b.Warn(fmt.Sprintf("%d boards are more than this process may hold open at once (raise the hard limit, ulimit -Hn): "+
			"each is taken under its own lock, consistent on its own but not with the others", m.Scenes()))
	}
	b.Hold(m.Release)
	b.Then(func() error {
		_, err := m.Copy(ctx, func(rel string, size int64, mtime time.Time, r io.Reader) error {
			return b.Add(filepath.Join(drawings, filepath.FromSlash(rel)), size, mtime, r)
		})
		return err
	})
	return nil
}

// isDir reports whether dir is a directory.
func isDir(dir string) bool {
	info, err := os.Stat(dir)
	return err == nil && info.IsDir()
}
