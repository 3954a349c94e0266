package excalidrawcmd

import (
	"context"
	"fmt"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/internal/migrate"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/storage"
)

// migrateStores is the plugin's part of `dsh store migrate`: every scene with
// its whole history, then the boards and OAuth clients, the files and the
// exports, each verified in the destination.
func migrateStores(ctx context.Context, m *cli.Migration) ([]migrate.Line, error) {
	var cfg excalidraw.Config
	if err := m.Entry.Decode(&cfg); err != nil {
		return nil, err
	}
	src, srcScenes, err := open(m.From, cfg)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	dst, dstScenes, err := open(m.To, cfg)
	if err != nil {
		return nil, err
	}
	defer dst.Close()
	where := func(err error) error { return fmt.Errorf("%s → %s: %w", m.From.Kind(), m.To.Kind(), err) }

	var out []migrate.Line
	l := migrate.Line{Kind: "scenes", Journaled: true}
	l.Copied, l.Unchanged, l.Journal, err = store.CopyAll(ctx, dstScenes, srcScenes, func(name string, o store.RestoreOutcome) {
		if m.Options.Progress != nil {
			m.Options.Progress("scene", name, string(o))
		}
	})
	if out = append(out, l); err != nil {
		return out, where(err)
	}
	l, err = migrate.Docs(ctx, dst.Doc, src.Doc, excalidraw.StateDocs, m.Options)
	if out = append(out, l); err != nil {
		return out, err
	}
	l = migrate.Line{Kind: "files"}
	l.Copied, l.Unchanged, err = files.CopyAll(ctx, dst.Files, src.Files)
	if out = append(out, l); err != nil {
		return out, fmt.Errorf("files: %w", err)
	}
	l = migrate.Line{Kind: "exports"}
	l.Copied, l.Unchanged, err = exports.CopyEach(ctx, dst.Exports, src.Exports, func(id string, copied bool) {
		if m.Options.Progress != nil {
			m.Options.Progress("export", id, map[bool]string{true: "copied", false: "unchanged"}[copied])
		}
	})
	if out = append(out, l); err != nil {
		return out, fmt.Errorf("exports: %w", err)
	}
	return out, nil
}

// open opens the plugin's stores on st for a migration: the scenes read
// and written verbatim, under the reading limits (a scene over a lowered
// limit still moves).
func open(st *storage.Storage, cfg excalidraw.Config) (*excalidraw.Stores, store.Migratable, error) {
	s, err := excalidraw.OpenStores(st, cfg, exports.Config{}, nil)
	if err != nil {
		return nil, nil, err
	}
	lim := excalidraw.LimitsOf(cfg).Effective().ForReading()
	scenes, err := s.OpenScenes(service.StoreParams{Codec: scene.Codec{Limits: lim}, MaxSceneBytes: lim.MaxSceneBytes})
	if err != nil {
		_ = s.Close()
		return nil, nil, err
	}
	m, ok := scenes.(store.Migratable)
	if !ok {
		_ = s.Close()
		return nil, nil, fmt.Errorf("the %s scene store cannot be migrated", st.Kind())
	}
	return s, m, nil
}
