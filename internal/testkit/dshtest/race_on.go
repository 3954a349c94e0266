//go:build race

package dshtest

// RaceEnabled reports whether this binary was built with -race; Build
// passes it on to the dsh it builds.
const RaceEnabled = true
