package layout

// Exported for the tests of package layout_test, which draw whole
// diagrams (package draw imports this one).
var (
	DotLayout    = dotLayout
	Architecture = architecture
	System       = system
	CICD         = cicd
	Random       = random
)
