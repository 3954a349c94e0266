// Package rendercheck renders scenes with Excalidraw 0.18.1's own export functions in headless Chromium and compares images, so tests can tell how close the native renderer is to Excalidraw and how fast Excalidraw is.
package rendercheck
