package scene

// Limits bound what a scene may hold. They protect the server (memory and
// CPU spent parsing), the browser that will render the scene, and the disk.
// A zero field takes its default, so Limits{} is the default set.
//
// They bound what is written. A scene already stored is read under
// [Limits.ForReading], so lowering a limit below a stored scene leaves it
// readable (it is not corrupt); only a write whose result is still over
// the limit is refused, with the limit's own error (see
// sceneerr.OverLimit).
type Limits struct {
	// MaxSceneBytes bounds the serialized document (default 32 MiB).
	MaxSceneBytes int64 `json:"maxSceneBytes"`
	// MaxElements bounds the live elements (default 10,000). Deleted
	// tombstones are not counted: they stay in the array after a
	// deletion, so counting them would let no deletion bring a scene
	// back under the limit. MaxSceneBytes bounds them.
	MaxElements int `json:"maxElements"`
	// MaxFiles bounds the number of attachments (default 64; a larger
	// value is lowered to the default: the contract lets configuration
	// tighten attachment limits, not loosen them).
	MaxFiles int `json:"maxFiles"`
	// MaxFileBytes bounds the total length of the attachments' data URLs,
	// in characters (default 8 MiB; a larger value is lowered to the
	// default, like MaxFiles).
	MaxFileBytes int64 `json:"maxFileBytes"`
	// MaxTextLength bounds the characters (Unicode code points) of one
	// text element's text and originalText (default 100,000).
	MaxTextLength int `json:"maxTextLength"`
	// MaxDepth bounds JSON nesting (default 64). Real scenes nest about six
	// levels deep; the limit exists to stop stack-exhaustion attacks.
	MaxDepth int `json:"maxDepth"`
	// MaxDiagnostics bounds the diagnostics a report lists (default
	// 1,000; the rest are counted in Report.Omitted). A hostile 32 MiB
	// scene can hold millions of problems; listing them all would cost
	// far more memory than the scene itself.
	MaxDiagnostics int `json:"maxDiagnostics"`
}

// The defaults of [Limits].
const (
	DefaultMaxSceneBytes  int64 = 32 << 20
	DefaultMaxElements          = 10000
	DefaultMaxFiles             = 64
	DefaultMaxFileBytes   int64 = 8 << 20
	DefaultMaxTextLength        = 100000
	DefaultMaxDepth             = 64
	DefaultMaxDiagnostics       = 1000
)

// The ceilings of the limits a configuration may set: the plugin's config
// schema clamps maxSceneBytes, maxElements and maxTextLength to these
// (maxFiles and the attachment bytes cannot be raised above their
// defaults at all). Any scene the plugin wrote is within them.
const (
	CeilingSceneBytes int64 = 256 << 20
	CeilingElements         = 100000
	CeilingTextLength       = 1000000
)

// ForReading returns the limits a scene already stored is read under:
// each of l's limits raised to its ceiling. A scene written under a
// higher setting is thus still read after the setting is lowered; a
// file beyond every setting (which the plugin cannot have written) is
// still refused, so reading stays bounded.
func (l Limits) ForReading() Limits {
	l = l.Effective()
	l.MaxSceneBytes = max(l.MaxSceneBytes, CeilingSceneBytes)
	l.MaxElements = max(l.MaxElements, CeilingElements)
	l.MaxTextLength = max(l.MaxTextLength, CeilingTextLength)
	l.MaxFiles, l.MaxFileBytes = DefaultMaxFiles, DefaultMaxFileBytes
	return l
}

// DefaultLimits returns the default limits with every field filled in.
func DefaultLimits() Limits {
	return Limits{}.Effective()
}

// Effective returns the limits actually enforced: zero or negative fields
// take their defaults and the attachment limits are capped at theirs.
func (l Limits) Effective() Limits {
	if l.MaxSceneBytes <= 0 {
		l.MaxSceneBytes = DefaultMaxSceneBytes
	}
	if l.MaxElements <= 0 {
		l.MaxElements = DefaultMaxElements
	}
	if l.MaxFiles <= 0 || l.MaxFiles > DefaultMaxFiles {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxFileBytes <= 0 || l.MaxFileBytes > DefaultMaxFileBytes {
		l.MaxFileBytes = DefaultMaxFileBytes
	}
	if l.MaxTextLength <= 0 {
		l.MaxTextLength = DefaultMaxTextLength
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxDiagnostics <= 0 {
		l.MaxDiagnostics = DefaultMaxDiagnostics
	}
	return l
}
