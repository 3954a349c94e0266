package build

import "math/rand/v2"

// idAlphabet is nanoid's URL-safe alphabet. Excalidraw makes element ids
// with nanoid (21 characters from this alphabet), so generated ids look
// like the editor's own and pass the same id checks.
const idAlphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"

// idLength is nanoid's default size.
const idLength = 21

// seedLimit bounds seeds and nonces: Excalidraw draws them as
// floor(random * 2^31).
const seedLimit = 1 << 31

// randomSource draws ids, seeds and nonces from one *rand.Rand so a fixed
// seed gives the same elements every time.
type randomSource struct {
	r *rand.Rand
}

// id returns a fresh 21-character id that taken does not hold, and
// records it there.
func (s randomSource) id(taken idSet) string {
	for {
		b := make([]byte, idLength)
		for i := range b {
			b[i] = idAlphabet[s.r.IntN(len(idAlphabet))]
		}
		id := string(b)
		if !taken.has(id) {
			taken.add(id)
			return id
		}
	}
}

// idSet is a set of ids.
type idSet interface {
	has(id string) bool
	add(id string)
}

// idsOf is an idSet in a map.
type idsOf map[string]bool

func (m idsOf) has(id string) bool { return m[id] }
func (m idsOf) add(id string)      { m[id] = true }

// takenIDs are the ids a Build call must not hand out: the scene's, read
// through its index, and those handed out already.
type takenIDs struct {
	sc  scene
	own idsOf
}

func (t takenIDs) has(id string) bool {
	if t.own[id] {
		return true
	}
	_, ok := t.sc.byID.Lookup(id)
	return ok
}

func (t takenIDs) add(id string) { t.own[id] = true }

// integer is a seed or versionNonce: an integer in [0, 2^31).
func (s randomSource) integer() int64 {
	return s.r.Int64N(seedLimit)
}
