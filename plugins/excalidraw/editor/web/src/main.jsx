// Entry point. Excalidraw resolves its font URLs against
// window.EXCALIDRAW_ASSET_PATH, so that is set before Excalidraw's module is
// evaluated (a static import would be hoisted above this line).
window.EXCALIDRAW_ASSET_PATH = "/dsh-excalidraw/assets/";

import("./boot.jsx").then(({ boot }) => boot(document.getElementById("root")));
