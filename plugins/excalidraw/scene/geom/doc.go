// Package geom is the plane geometry of an Excalidraw scene: vectors,
// rotation as Excalidraw applies it (clockwise on screen, about an
// element's centre), the outlines of box shapes as Excalidraw draws them,
// and the polygon tests built on them.
//
// It is the one geometry: the builder binds arrows to these outlines and
// the linter checks bindings, overlaps and crossings against the same
// ones, so an end the builder calls bound is one the linter agrees is.
package geom
