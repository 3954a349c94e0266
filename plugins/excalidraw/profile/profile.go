// Package profile is a board's style contract (set_board_profile): its
// type scale, spacing, what each palette role and stroke style means, and
// the words that must never wrap. Planners take their defaults from it and
// validate_scene {profile:"visual-qa"} checks a board against it.
package profile

import "maps"

// Levels are the type scale's level names, largest first. A profile names
// any subset of them.
var Levels = []string{"title", "heading", "subheading", "body", "caption"}

// DefaultSpacing is the gap planners leave when no profile says one.
const DefaultSpacing = 20

// Profile is the style contract of a board or of a folder's boards. The
// zero value is no profile: planners use their own defaults and the
// visual-qa rules are skipped.
type Profile struct {
	// TypeScale maps a level (Levels) to its font size in pixels.
	TypeScale map[string]float64 `json:"typeScale,omitempty"`
	// FontFamily is Excalidraw's font family number (5 Excalifont,
	// 6 Nunito, 7 Lilita One, 8 Comic Shanns, 1–3 the legacy ones); 0
	// leaves it to the planner.
	FontFamily int `json:"fontFamily,omitempty"`
	// Spacing is the base gap between things, in pixels; 0 is
	// DefaultSpacing.
	Spacing float64 `json:"spacing,omitempty"`
	// Roles maps a palette role ("primary", "database", "error"…) to
	// its colours and what it means.
	Roles map[string]Role `json:"roles,omitempty"`
	// Strokes maps a stroke style ("solid", "dashed", "dotted") to what
	// it means ("async call").
	Strokes map[string]string `json:"strokes,omitempty"`
	// NoWrap are literal words or phrases that must never be broken over
	// two lines ("PostgreSQL", "user_id").
	NoWrap []string `json:"noWrap,omitempty"`
}

// Role is one palette role: its stroke and fill (colours Excalidraw
// draws) and its meaning, which a legend shows.
type Role struct {
	Stroke  string `json:"stroke,omitempty"`
	Fill    string `json:"fill,omitempty"`
	Meaning string `json:"meaning,omitempty"`
}

// IsZero reports whether p sets nothing.
func (p Profile) IsZero() bool {
	return len(p.TypeScale) == 0 && p.FontFamily == 0 && p.Spacing == 0 &&
		len(p.Roles) == 0 && len(p.Strokes) == 0 && len(p.NoWrap) == 0
}

// Over is over laid on p field by field (a board's profile over its
// folder's): a field over sets wins, and in the maps a key over sets wins
// while p's other keys stay.
func (p Profile) Over(over Profile) Profile {
	out := p
	out.TypeScale = mergeMap(p.TypeScale, over.TypeScale)
	out.Roles = mergeMap(p.Roles, over.Roles)
	out.Strokes = mergeMap(p.Strokes, over.Strokes)
	if over.FontFamily != 0 {
		out.FontFamily = over.FontFamily
	}
	if over.Spacing != 0 {
		out.Spacing = over.Spacing
	}
	if over.NoWrap != nil {
		out.NoWrap = over.NoWrap
	}
	return out
}

func mergeMap[V any](base, over map[string]V) map[string]V {
	if len(base) == 0 && len(over) == 0 {
		return nil
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string]V{}
	}
	maps.Copy(out, over)
	return out
}

// Gap is the profile's spacing, or DefaultSpacing.
func (p Profile) Gap() float64 {
	if p.Spacing > 0 {
		return p.Spacing
	}
	return DefaultSpacing
}

// Size is the font size of level, or def when the profile has none.
func (p Profile) Size(level string, def float64) float64 {
	if s, ok := p.TypeScale[level]; ok && s > 0 {
		return s
	}
	return def
}
