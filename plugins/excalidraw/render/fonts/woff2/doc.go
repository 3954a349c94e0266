// Package woff2 decodes WOFF2 web fonts (https://www.w3.org/TR/WOFF2/) into the SFNT (TrueType or OpenType) files they were made from.
package woff2
