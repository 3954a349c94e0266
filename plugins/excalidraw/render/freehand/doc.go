// Package freehand draws Excalidraw 0.18.1 freedraw elements as perfect-freehand 1.2.0 outlines and the SVG path data Excalidraw makes from them.
package freehand
