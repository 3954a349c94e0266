package scene

import (
	"crypto/sha256"
	"encoding/binary"
	"hash/fnv"
	"strconv"
)

// idAlphabet holds the 64 characters of nanoid's URL-safe alphabet:
// generated ids look like the ones Excalidraw makes (21 of them).
const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

const idLength = 21

// restoreID applies `id || randomId()` with a derived id instead of a
// random one, so that the same document always gets the same ids.
// Beyond restore, an id that is not a string is replaced too: restore
// keeps it, but references are strings, so nothing can bind to it, and
// the editor's maps then disagree from one load to the next.
func (n *normalizer) restoreID(f elemFix) {
	if v, ok := f.el.Get("id"); !jsFalsy(v, ok) && isString(v) {
		return
	}
	id := n.newElementID(f.i)
	f.set("id", id, FixID)
	n.addRepair(Repair{Code: RepairIDAssigned, NewID: id, Pointer: elementPointer(f.i, "id")})
}

// claimID gives an element whose id an earlier element (that restore
// keeps) already has a new one, as restoreElements does, so that
// references keep pointing at the first.
func (n *normalizer) claimID(f elemFix, claimed map[string]bool) {
	id, _ := f.el.String("id")
	if !claimed[id] {
		claimed[id] = true
		return
	}
	newID := n.newElementID(f.i)
	f.set("id", newID, FixID)
	claimed[newID] = true
	n.addRepair(Repair{Code: RepairDuplicateIDRenamed, ID: id, NewID: newID, Pointer: elementPointer(f.i, "id")})
}

// newElementID derives an id for element i from a hash of its position
// (and a counter, should that id be taken), unique in the document.
func (n *normalizer) newElementID(i int) string {
	if n.ids == nil {
		n.ids = make(map[string]bool, len(n.els))
		for _, el := range n.els {
			if el != nil {
				if id, ok := el.String("id"); ok {
					n.ids[id] = true
				}
			}
		}
	}
	for attempt := 0; ; attempt++ {
		var seed [16]byte
		binary.BigEndian.PutUint64(seed[:8], uint64(i))
		binary.BigEndian.PutUint64(seed[8:], uint64(attempt))
		sum := sha256.Sum256(append([]byte("dsh/scene.Normalize id\x00"), seed[:]...))
		id := make([]byte, idLength)
		for k := range id {
			id[k] = idAlphabet[sum[k]&63]
		}
		if s := string(id); !n.ids[s] {
			n.ids[s] = true
			return s
		}
	}
}

// bumpVersion is restore's bumpVersion, and what mutateElement does after
// a change: version + 1, a new versionNonce (derived, not random) and
// `updated` set to now, so that collaborators take the change.
func (n *normalizer) bumpVersion(f elemFix) {
	version, ok := finite(f.el, "version")
	if !ok {
		return
	}
	id, _ := f.el.String("id")
	f.put("version", jsNumber(version+1))
	f.put("versionNonce", derivedNonce(id, version+1))
	f.put("updated", n.latest())
}

// derivedNonce stands in for randomInteger() where restore bumps an
// element's version: a 31-bit hash of its id and new version.
func derivedNonce(id string, version float64) any {
	h := fnv.New32a()
	h.Write([]byte(id))
	h.Write([]byte{0})
	h.Write([]byte(strconv.FormatFloat(version, 'g', -1, 64)))
	return jsNumber(float64(h.Sum32() & 0x7fffffff))
}
