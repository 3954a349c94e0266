package render

// ShapeCacheStats are the shape cache's hits and misses so far, for the
// external tests.
func ShapeCacheStats() (hits, misses int64) { return shapes.Stats() }

// PurgeShapeCache empties the shape cache, so a test or a measurement
// draws from nothing.
func PurgeShapeCache() { shapes.Purge() }

// ShapeCacheLen is the shape cache's entries and their cost in bytes.
func ShapeCacheLen() (entries, cost int) { return shapes.Len() }
