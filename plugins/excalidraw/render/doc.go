// Package render draws an Excalidraw scene the way Excalidraw 0.18.1
// exports it, without a browser: Draw lays the scene out as a Picture (a
// display list of rough.js strokes, text lines and images in scene
// coordinates), which the svg and raster packages write as SVG and PNG.
//
// The strokes are rough.js's, from each element's seed (package rough),
// freedraw outlines are perfect-freehand's (package freehand), and text
// is placed with Excalidraw's font metrics, so a picture shows what the
// editor shows.
package render

// Version changes whenever pictures of the same scene change: caches
// (HTTP ETags, thumbnails) key on it.
const Version = "r2"
