import { createRoot } from "react-dom/client";
import "@excalidraw/excalidraw/index.css";
import "./styles.css";
import { App } from "./App.jsx";
import { reportError } from "./api.js";

export function boot(el) {
  window.addEventListener("error", (e) => reportError(e.message || String(e.error)));
  window.addEventListener("unhandledrejection", (e) => reportError(String(e.reason?.message || e.reason)));
  createRoot(el).render(<App />);
}
