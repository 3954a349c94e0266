import { useEffect, useRef, useState } from "react";
import { thumbnailURL } from "./api.js";

// The box a thumbnail is letterboxed in (CSS px; .dsh-thumb in styles.css).
const BOX_W = 200;
const BOX_H = 120;
// The picture's pixel budget: the box at the screen's density (taken once,
// so zooming the page does not fetch every thumbnail again).
const MAX_PIXELS = BOX_W * BOX_H * Math.min(3, Math.max(1, window.devicePixelRatio || 1)) ** 2;
// The least time between two requests for one thumbnail: the server draws
// a board's picture at most every few seconds, so asking at every
// revision of a busy board would only fetch the same picture again.
const EVERY_MS = 3000;

// Thumbnail is a listed scene as dsh draws it (thumbnail.png), fitted into
// a fixed box with its aspect ratio kept. It is fetched once the box is on
// screen (or nearly), and again when the list stream moves the row past the revision
// the picture shows, at most every EVERY_MS: a burst of commits costs one
// request, and the server answers from its cache (a 304 when the picture
// has not changed). The picture shown may be of an older revision while
// the newer one is drawn; the old one stays in place until the new one is
// in. Until a picture is in, and when there is none (an empty scene, which
// the route answers 404 "nothing to draw", or one it cannot draw), the box
// is a neutral placeholder.
//
// data-state on the box: empty (nothing to ask for), loading, refreshing
// (an older picture shown while a newer one is asked for), loaded, error.
// The image carries data-url (what it was fetched from) and data-rev (the
// revision it shows).
export function Thumbnail({ scene, dark }) {
  const drawable = scene.valid !== false && scene.elementCount > 0;
  const url = drawable ? thumbnailURL(scene.name, { maxPixels: MAX_PIXELS, dark }) : "";
  const want = scene.revision;
  const box = useRef(null);
  const [visible, setVisible] = useState(false);
  // pic: the picture shown {url, rev, src (a blob: URL)}; failed: the
  // url@revision whose request failed.
  const [pic, setPic] = useState(null);
  const [failed, setFailed] = useState("");
  const [tick, setTick] = useState(0);
  const busy = useRef(false);
  const last = useRef({ url: "", at: 0 });

  useEffect(() => {
    const el = box.current;
    if (!el || typeof IntersectionObserver === "undefined") {
      setVisible(true);
      return undefined;
    }
    // A box a little below the fold of the list (which scrolls on its own)
    // counts too: its picture is in by the time the list is scrolled to it.
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          io.disconnect();
        }
      },
      { root: el.closest(".dsh-sidebar"), rootMargin: "0px 0px 400px 0px" },
    );
    io.observe(el);
    return () => io.disconnect();
  }, []);

  const have = pic && pic.url === url ? pic.rev : -1;
  useEffect(() => {
    if (!url || !visible || have >= want || busy.current || failed === `${url}@${want}`) return undefined;
    // A new URL (the theme changed) is asked for at once; the same one
    // no sooner than EVERY_MS after the last request.
    const wait = last.current.url === url ? last.current.at + EVERY_MS - Date.now() : 0;
    if (wait > 0) {
      const t = setTimeout(() => setTick((n) => n + 1), wait);
      return () => clearTimeout(t);
    }
    busy.current = true;
    last.current = { url, at: Date.now() };
    const asked = want;
    // The revision it knows of goes as a header, so the URL stays the
    // same and the browser asks conditionally (a 304 when unchanged).
    fetch(url, { credentials: "same-origin", cache: "no-cache", headers: { "X-Scene-Revision": String(want) } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const rev = Number(res.headers.get("X-Scene-Revision")) || 0;
        const src = URL.createObjectURL(await res.blob());
        setPic((prev) => {
          if (prev) URL.revokeObjectURL(prev.src);
          return { url, rev, src };
        });
        setFailed("");
      })
      .catch(() => setFailed(`${url}@${asked}`))
      .finally(() => {
        busy.current = false;
        setTick((n) => n + 1);
      });
    return undefined;
  }, [url, visible, want, have, tick, failed]);

  // The last picture's blob: URL goes with the box.
  const picRef = useRef(null);
  picRef.current = pic;
  useEffect(() => () => picRef.current && URL.revokeObjectURL(picRef.current.src), []);

  let state = "empty";
  if (url) {
    if (failed === `${url}@${want}`) state = "error";
    else if (have >= want) state = "loaded";
    else if (pic) state = "refreshing";
    else state = "loading";
  }
  const label = state === "empty" ? (scene.valid === false ? "cannot be read" : "empty") : state === "error" ? "no preview" : "";
  return (
    <span ref={box} className={`dsh-thumb dsh-thumb-${state}`} data-testid="thumb" data-state={state} data-label={label || undefined}>
      {url && pic && state !== "error" && (
        <img src={pic.src} alt={scene.name} loading="lazy" decoding="async" draggable={false} data-url={pic.url} data-rev={pic.rev} />
      )}
    </span>
  );
}
