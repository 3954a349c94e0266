package service

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/identity"
)

// BenchmarkGuard is what the access check costs a call: the same reads
// and writes on a service without a guard ("open") and on one with the
// board guard, called as a bot bound to the board ("guarded"), in the
// same run. The ratio guarded/open is the check's price.
func BenchmarkGuard(b *testing.B) {
	bot := identity.With(context.Background(), identity.Principal{Kind: "token", ID: "tok_b", Person: "per_a", PersonName: "ann",
		Grant: access.NewGrant(access.Grant{Role: identity.RoleEditor, Boards: []string{"big"}})})
	for _, mode := range []string{"open", "guarded"} {
		dir := filepath.Join(b.TempDir(), "drawings")
		cfg := Config{DrawingsDir: dir}
		ctx := context.Background()
		st := boards.Open(boards.File(dir), boards.Options{})
		if mode == "guarded" {
			cfg.Guard = access.NewGuard(st, nil, nil)
			ctx = bot
		}
		s, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = s.Close() })
		inputs := raws(`{"type":"rectangle","id":"r","x":0,"y":0,"width":80,"height":40}`)
		if _, err := s.Create(context.Background(), CreateRequest{Name: "big", Elements: inputs}); err != nil {
			b.Fatal(err)
		}
		if _, err := st.SetOwner(ctx, "big", "per_a"); err != nil { // ann's board, her bot bound to it
			b.Fatal(err)
		}
		b.Run("read/"+mode, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Read(ctx, ReadRequest{Name: "big", Include: IncludeSummary}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("list/"+mode, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.List(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("apply/"+mode, func(b *testing.B) {
			h, err := s.Head(ctx, "big")
			if err != nil {
				b.Fatal(err)
			}
			rev := h.Revision
			for i := 0; b.Loop(); i++ {
				res, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: rev,
					Operations: raws(fmt.Sprintf(`{"op":"update","id":"r","patch":{"x":%d}}`, i%2))})
				if err != nil {
					b.Fatal(err)
				}
				rev = res.Revision
			}
		})
	}
}
