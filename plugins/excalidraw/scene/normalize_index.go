package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/findex"

// syncIndices gives every element a valid fractional index, in array
// order, the way restore's syncInvalidIndices does: indices that are valid
// and in order stay; each run of invalid ones is regenerated between the
// valid neighbours found around it, with the same bounds and the same key
// generation (generateNKeysBetween), so the keys are Excalidraw's own.
// Like restore (mutateElement), it bumps the version of each element it
// re-indexes, so that collaborators take the new index.
//
// Two departures, for inputs on which Excalidraw would keep a broken
// order or throw: an index that is not a well-formed key (Excalidraw only
// compares strings, and throws when such a key bounds a run) counts as
// missing; and should key generation fail or its result not be strictly
// increasing (not seen on well-formed keys, but not excluded by the
// algorithm either), the indices out of order are regenerated between
// the in-order ones instead (greedyIndices). Every element takes part,
// those restore drops too: what is written is the whole array.
func (n *normalizer) syncIndices() {
	if n.scoped && n.indicesInOrder() {
		return
	}
	var pos []int
	var keys []string
	for i, el := range n.els {
		if el == nil {
			continue
		}
		pos = append(pos, i)
		k, _ := el.String("index")
		if findex.Validate(k) != nil {
			k = ""
		}
		keys = append(keys, k)
	}
	next, ok := excalidrawIndices(keys)
	if !ok || len(findex.CheckOrder(next)) > 0 {
		next = greedyIndices(keys)
	}
	for k, i := range pos {
		if v, present := n.els[i].Get("index"); present && v == next[k] {
			continue
		}
		f := elemFix{n: n, i: i, el: n.els[i]}
		f.set("index", next[k], FixIndex)
		n.bumpVersion(f)
	}
}

// excalidrawIndices applies syncInvalidIndices to keys ("" for a missing
// or malformed one); false if a run's bounds do not admit keys between
// them.
func excalidrawIndices(keys []string) ([]string, bool) {
	out := append([]string(nil), keys...)
	for _, g := range invalidIndexGroups(keys) {
		lo, hi := keyAt(keys, g[0]), keyAt(keys, g[len(g)-1])
		inner := g[1 : len(g)-1]
		gen, err := findex.N(lo, hi, len(inner))
		if err != nil {
			return nil, false
		}
		for k, i := range inner {
			out[i] = gen[k]
		}
	}
	return out, true
}

func keyAt(keys []string, i int) string {
	if i < 0 || i >= len(keys) {
		return ""
	}
	return keys[i]
}

// validBetween is isValidFractionalIndex: a key greater than its lower
// bound and less than its upper one, where "" is no bound.
func validBetween(key, lower, upper string) bool {
	switch {
	case key == "":
		return false
	case lower != "" && upper != "":
		return lower < key && key < upper
	case upper != "":
		return key < upper
	case lower != "":
		return lower < key
	}
	return true
}

// invalidIndexGroups is getInvalidIndicesGroups: runs of positions whose
// keys must be regenerated, each as [lower bound, positions..., upper
// bound] (bounds may be -1 or len(keys): none). The bound searches keep
// Excalidraw's caching, which decides which neighbours are bounds, hence
// the generated keys.
func invalidIndexGroups(keys []string) [][]int {
	var groups [][]int
	lowerIdx, upperIdx := -1, 0
	lowerBound := func(i int) (string, int) {
		cached, cand := keyAt(keys, lowerIdx), keyAt(keys, i-1)
		if cand != "" && (cached == "" || cand > cached) {
			return cand, i - 1
		}
		return cached, lowerIdx
	}
	upperBound := func(i int) (string, int) {
		cached := keyAt(keys, upperIdx)
		if cached != "" && i < upperIdx {
			return cached, upperIdx
		}
		j := upperIdx + 1
		for ; j < len(keys); j++ {
			if cand := keys[j]; cand != "" && (cached == "" || cand > cached) {
				return cand, j
			}
		}
		return "", j
	}
	for i := 0; i < len(keys); {
		var lo, hi string
		lo, lowerIdx = lowerBound(i)
		hi, upperIdx = upperBound(i)
		if validBetween(keys[i], lo, hi) {
			i++
			continue
		}
		group := []int{lowerIdx, i}
		for i++; i < len(keys); i++ {
			nlo, nloIdx := lowerBound(i)
			nhi, nhiIdx := upperBound(i)
			if validBetween(keys[i], nlo, nhi) {
				break
			}
			lowerIdx, upperIdx = nloIdx, nhiIdx
			group = append(group, i)
		}
		groups = append(groups, append(group, upperIdx))
	}
	return groups
}

// greedyIndices keeps each valid key greater than the last one kept and
// regenerates the others between their kept neighbours. It always yields
// strictly increasing keys.
func greedyIndices(keys []string) []string {
	out := append([]string(nil), keys...)
	last, lastIdx := "", -1
	fill := func(upTo int, upper string) bool {
		gen, err := findex.N(last, upper, upTo-lastIdx-1)
		if err != nil {
			return false
		}
		copy(out[lastIdx+1:upTo], gen)
		return true
	}
	for i, k := range keys {
		if k == "" || (last != "" && k <= last) {
			continue
		}
		if !fill(i, k) {
			break
		}
		last, lastIdx = k, i
	}
	if fill(len(keys), "") {
		return out
	}
	all, _ := findex.N("", "", len(keys))
	return all
}
