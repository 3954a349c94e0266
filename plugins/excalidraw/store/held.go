package store

import "context"

// HeldScene is Read answered from what this Store holds: the record and
// the bytes of the scene's last commit by this Store (the bytes it wrote
// and read back), while the scene file and its sidecar are provably still
// that pair, by the proof Head uses (see Head), so without reading or
// hashing the file. ok is false when that cannot be shown (the bytes were
// dropped to bound memory, another writer or a person moved either file,
// a coarse clock has not settled, ctx is done): the caller reads. The
// bytes are shared: the caller must not change them.
func (s *Store) HeldScene(ctx context.Context, name string) (sc *Scene, ok bool) {
	if ctx.Err() != nil || ValidName(name) != nil {
		return nil, false
	}
	v, ok := s.known.Load(name)
	if !ok {
		return nil, false
	}
	k := v.(*knownScene)
	if k.data == nil || !s.stillKnown(name, k) {
		return nil, false
	}
	return &Scene{Meta: k.meta, Data: k.data}, true
}
