package tools

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// A member a closed object does not declare is most often a known one
// misspelt: another case or separator ("frame_Ids", "textcontains"), a
// slip of a letter or two ("frameIdz"). The explainer names the declared
// member it most likely meant, so the agent's next call is right:
// `unknown property "frameIdz" (did you mean "frameIds"?)`.

// listUnknown is listNames for unknown members, each followed by the
// member of declared it most likely meant, when one is close enough.
func listUnknown(names, declared []string) string {
	shown := names[:min(len(names), maxListedNames)]
	parts := make([]string, len(shown))
	for i, n := range shown {
		parts[i] = renderValue(n)
		if m := closest(n, declared); m != "" {
			parts[i] += " (did you mean " + renderValue(m) + "?)"
		}
	}
	s := strings.Join(parts, ", ")
	if rest := len(names) - len(shown); rest > 0 {
		s += " and " + strconv.Itoa(rest) + " more"
	}
	return s
}

// closest is the name of declared nearest to name: the same but for case,
// "_" and "-", or within a few edits of it (see maxEdits) once both are
// folded so; "" when none is that near. Ties go to the fewer edits in
// lower case (so the separators decide), then to the first in order.
func closest(name string, declared []string) string {
	folded := fold(name)
	limit := maxEdits(folded)
	best, bestFolded, bestRaw := "", limit+1, 0
	for _, d := range declared {
		if d == name {
			continue
		}
		df := editDistance(folded, fold(d))
		if df > limit {
			continue
		}
		raw := editDistance(strings.ToLower(name), strings.ToLower(d))
		if c := cmp.Or(cmp.Compare(df, bestFolded), cmp.Compare(raw, bestRaw), cmp.Compare(d, best)); best == "" || c < 0 {
			best, bestFolded, bestRaw = d, df, raw
		}
	}
	return best
}

// maxEdits is how many edits a name of n folded bytes may be from the one
// it meant: one for a short name, one more per five bytes, at most three;
// a name of one or two letters is not guessed at.
func maxEdits(folded string) int {
	if len(folded) < 3 {
		return 0
	}
	return min(1+len(folded)/5, 3)
}

// fold is a name in lower case without "_" and "-".
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// editDistance is how many single-rune edits turn a into b: inserts,
// deletes, substitutions and swaps of two neighbours (the optimal string
// alignment distance: "nmae" is one edit from "name").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j-1]+cost, d[i-1][j]+1, d[i][j-1]+1)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// declaredNames lists, sorted, the members schema s declares by name, in
// its own properties or in the schemas it applies in place (see
// inPlace): the names an unknown member may have meant.
func declaredNames(s *jsonschema.Schema) []string {
	var out []string
	findInPlace(s, func(c *jsonschema.Schema) bool {
		for name := range c.Properties {
			out = append(out, name)
		}
		return false
	})
	slices.Sort(out)
	return slices.Compact(out)
}
