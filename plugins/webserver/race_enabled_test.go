//go:build race

package webserver

// raceEnabled reports whether the test binary was built with -race.
const raceEnabled = true
