package raster

// EncodePNGForTest exposes the PNG writer to the external tests.
var EncodePNGForTest = encodePNG
