package profile

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Bounds of what a profile says.
const (
	MinFontSize = 8
	MaxFontSize = 200
	MaxSpacing  = 400
	MaxNoWrap   = 50
	MaxRoles    = 40
	// MaxWord bounds a role's name and a noWrap entry, in characters;
	// MaxMeaning a meaning.
	MaxWord    = 60
	MaxMeaning = 120
)

// StrokeStyles are the stroke styles a profile gives meanings to.
var StrokeStyles = []string{"solid", "dashed", "dotted"}

// Check returns nil when p is a profile dsh can keep, else an
// invalid_operation error whose pointer names the faulty field under at
// (at+"/typeScale/body"): font sizes MinFontSize–MaxFontSize on Levels,
// a known font family, colours Excalidraw draws (build.ValidColor),
// stroke styles of StrokeStyles, spacing 0–MaxSpacing, at most MaxNoWrap
// noWrap entries and MaxRoles roles, one line each.
func (p Profile) Check(at string) error {
	for _, level := range sortedKeys(p.TypeScale) {
		ptr := at + "/typeScale/" + level
		if !slices.Contains(Levels, level) {
			return fail(ptr, "typeScale has no level %q; the levels are %s", level, strings.Join(Levels, ", "))
		}
		if s := p.TypeScale[level]; math.IsNaN(s) || s < MinFontSize || s > MaxFontSize {
			return fail(ptr, "a font size must be %d to %d px (got %v)", MinFontSize, MaxFontSize, s)
		}
	}
	if p.FontFamily != 0 && !textmetrics.Known(textmetrics.FontFamily(p.FontFamily)) {
		return fail(at+"/fontFamily", "fontFamily %d is no Excalidraw font (5 Excalifont, 6 Nunito, 7 Lilita One, 8 Comic Shanns, 1 Virgil, 2 Helvetica, 3 Cascadia)", p.FontFamily)
	}
	if math.IsNaN(p.Spacing) || p.Spacing < 0 || p.Spacing > MaxSpacing {
		return fail(at+"/spacing", "spacing must be 0 to %d px (got %v)", MaxSpacing, p.Spacing)
	}
	if len(p.Roles) > MaxRoles {
		return fail(at+"/roles", "a profile has at most %d roles (got %d)", MaxRoles, len(p.Roles))
	}
	for _, name := range sortedKeys(p.Roles) {
		ptr := at + "/roles/" + escape(name)
		if err := checkLine(ptr, "a role's name", name, 1, MaxWord); err != nil {
			return err
		}
		r := p.Roles[name]
		if r.Stroke != "" && !build.ValidColor(r.Stroke) {
			return badColor(ptr+"/stroke", r.Stroke)
		}
		if r.Fill != "" && !build.ValidColor(r.Fill) {
			return badColor(ptr+"/fill", r.Fill)
		}
		if err := checkLine(ptr+"/meaning", "a meaning", r.Meaning, 0, MaxMeaning); err != nil {
			return err
		}
	}
	for _, style := range sortedKeys(p.Strokes) {
		ptr := at + "/strokes/" + escape(style)
		if !slices.Contains(StrokeStyles, style) {
			return fail(ptr, "a stroke style is solid, dashed or dotted (got %q)", style)
		}
		if err := checkLine(ptr, "a meaning", p.Strokes[style], 0, MaxMeaning); err != nil {
			return err
		}
	}
	if len(p.NoWrap) > MaxNoWrap {
		return fail(at+"/noWrap", "noWrap has at most %d entries (got %d)", MaxNoWrap, len(p.NoWrap))
	}
	for i, w := range p.NoWrap {
		if err := checkLine(at+"/noWrap/"+strconv.Itoa(i), "a noWrap entry", w, 1, MaxWord); err != nil {
			return err
		}
	}
	return nil
}

// Clone is p with maps and slices of its own.
func (p Profile) Clone() Profile {
	p.TypeScale = maps.Clone(p.TypeScale)
	p.Roles = maps.Clone(p.Roles)
	p.Strokes = maps.Clone(p.Strokes)
	p.NoWrap = slices.Clone(p.NoWrap)
	return p
}

// Sizes are the type scale's sizes, ascending, each once.
func (p Profile) Sizes() []float64 {
	var out []float64
	for _, s := range p.TypeScale {
		if s > 0 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// OnScale reports whether size is on the type scale (to a hundredth).
func (p Profile) OnScale(size float64) bool {
	for _, s := range p.TypeScale {
		if math.Abs(s-size) < 0.01 {
			return true
		}
	}
	return false
}

// Nearest is the size on the type scale nearest to size (the smaller of
// two as near), or size itself when the profile has no type scale.
func (p Profile) Nearest(size float64) float64 {
	best := size
	for i, s := range p.Sizes() {
		if i == 0 || math.Abs(s-size) < math.Abs(best-size) {
			best = s
		}
	}
	return best
}

func fail(ptr, format string, args ...any) error {
	return sceneerr.New(sceneerr.InvalidOperation, format, args...).With("pointer", ptr)
}

func badColor(ptr, c string) error {
	return fail(ptr, "%q is no colour Excalidraw draws: use #rgb, #rgba, #rrggbb, #rrggbbaa, a CSS colour name or transparent", c)
}

// checkLine checks that s is one line of min to max characters without
// control characters; what names it in the message.
func checkLine(ptr, what, s string, min, max int) error {
	if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return fail(ptr, "%s must be one line of text without control characters", what)
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(s)); n < min || n > max {
		return fail(ptr, "%s must be %d to %d characters (got %d)", what, min, max, n)
	}
	return nil
}

// escape is a map key as a JSON pointer token.
func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
