package render

// ShapeCacheStats are the shape cache's hits and misses so far, for the
// external tests.
func ShapeCacheStats() (hits, misses int64) { return shapes.Stats() }

// PurgeShapeCache empties the shape caches (rough shapes, freedraw
// outlines), so a test or a measurement
// draws from nothing.
func PurgeShapeCache() {
	shapes.Purge()
	outlines.Purge()
}

// ShapeCacheLen is the shape cache's entries and their cost in bytes.
func ShapeCacheLen() (entries, cost int) { return shapes.Len() }

// OutlineCacheStats are the freedraw outline cache's hits and misses.
func OutlineCacheStats() (hits, misses int64) { return outlines.Stats() }
