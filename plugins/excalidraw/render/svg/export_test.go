package svg

// NumberForTest exposes the number format to the external tests.
func NumberForTest(f float64) string { return n(f) }
