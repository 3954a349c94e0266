//go:build race

package woff2

const raceEnabled = true
