import { useState } from "react";
import { renderURL } from "./api.js";

// The box a thumbnail is letterboxed in (CSS px; .dsh-thumb in styles.css).
const BOX_W = 200;
const BOX_H = 120;
// The picture's pixel budget: the box at the screen's density (taken once,
// so zooming the page does not fetch every thumbnail again).
const MAX_PIXELS = BOX_W * BOX_H * Math.min(3, Math.max(1, window.devicePixelRatio || 1)) ** 2;
// The thumbnails are PNG fitted to that budget: a few kilobytes each,
// where an SVG carries its fonts.
const FORMAT = "png";

// Thumbnail is a listed scene as dsh draws it (render.png), fitted into a
// fixed box with its aspect ratio kept. Its URL names the revision, so a
// commit to the scene (the list stream moves the row's revision) loads the
// new picture; the old one stays in place until the new one is in. Until a
// picture is in, and when there is none (an empty scene, which the route
// answers 404 "nothing to draw", or one it cannot draw), the box is a
// neutral placeholder.
//
// data-state on the box: empty (nothing to ask for), loading, refreshing
// (the previous revision shown while the new one loads), loaded, error.
export function Thumbnail({ scene, dark }) {
  const drawable = scene.valid !== false && scene.elementCount > 0;
  const src = drawable ? renderURL(scene.name, { format: FORMAT, maxPixels: MAX_PIXELS, dark, rev: scene.revision }) : "";
  // The last URL that loaded and the last that failed.
  const [loaded, setLoaded] = useState("");
  const [failed, setFailed] = useState("");

  let state = "empty";
  if (src) {
    if (failed === src) state = "error";
    else if (loaded === src) state = "loaded";
    else if (loaded) state = "refreshing";
    else state = "loading";
  }
  const label = state === "empty" ? (scene.valid === false ? "cannot be read" : "empty") : state === "error" ? "no preview" : "";
  return (
    <span className={`dsh-thumb dsh-thumb-${state}`} data-testid="thumb" data-state={state} data-label={label || undefined}>
      {src && (
        <img
          src={src}
          alt={scene.name}
          loading="lazy"
          decoding="async"
          draggable={false}
          onLoad={(e) => {
            setLoaded(e.currentTarget.getAttribute("src"));
            setFailed("");
          }}
          onError={(e) => setFailed(e.currentTarget.getAttribute("src"))}
        />
      )}
    </span>
  );
}
