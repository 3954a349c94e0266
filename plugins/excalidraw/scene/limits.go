package scene

// Limits bound what a scene may hold. They protect the server (memory and
// CPU spent parsing), the browser that will render the scene, and the disk.
// A zero field takes its default, so Limits{} is the default set.
type Limits struct {
	// MaxSceneBytes bounds the serialized document (default 32 MiB).
	MaxSceneBytes int64 `json:"maxSceneBytes"`
	// MaxElements bounds the elements array, deleted tombstones included
	// (default 10,000).
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
