//go:build !race

package woff2

const raceEnabled = false
