import { useCallback, useEffect, useState } from "react";
import { ApiError, createScene, listScenes } from "./api.js";
import { SceneEditor } from "./SceneEditor.jsx";

// The scene named in the URL (#name), so a link opens a scene.
const sceneFromHash = () => decodeURIComponent(location.hash.replace(/^#\/?/, ""));

export function App() {
  const [scenes, setScenes] = useState([]);
  const [current, setCurrent] = useState(sceneFromHash());
  const [newName, setNewName] = useState("");
  const [problem, setProblem] = useState("");

  const refresh = useCallback(() => {
    listScenes()
      .then(setScenes)
      .catch((e) => setProblem(e instanceof ApiError && e.status === 401 ? "Not logged in: open the login link dsh printed." : e.message));
  }, []);

  useEffect(() => {
    refresh();
    const onHash = () => setCurrent(sceneFromHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [refresh]);

  const open = (name) => {
    location.hash = "#" + encodeURIComponent(name);
  };

  const create = async (e) => {
    e.preventDefault();
    const name = newName.trim();
    if (!name) return;
    try {
      await createScene(name);
      setNewName("");
      setProblem("");
      refresh();
      open(name);
    } catch (err) {
      setProblem(`${err.code || "error"}: ${err.message}`);
    }
  };

  return (
    <div className="dsh-layout">
      <aside className="dsh-sidebar">
        <h1>Scenes</h1>
        <form onSubmit={create} className="dsh-create">
          <input
            aria-label="New scene name"
            placeholder="new-scene-name"
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
          />
          <button type="submit">Create</button>
        </form>
        {problem && <p className="dsh-problem" role="alert">{problem}</p>}
        <ul className="dsh-scenes">
          {scenes.map((s) => (
            <li key={s.name}>
              <button
                className={s.name === current ? "dsh-scene dsh-active" : "dsh-scene"}
                onClick={() => open(s.name)}
                title={s.valid === false ? s.problem : `revision ${s.revision}`}
              >
                {s.name}
                <span className="dsh-rev">r{s.revision}</span>
              </button>
            </li>
          ))}
        </ul>
        <button className="dsh-refresh" onClick={refresh}>Refresh list</button>
      </aside>
      <main className="dsh-main">
        {current ? (
          <SceneEditor key={current} name={current} onSaved={refresh} />
        ) : (
          <div className="dsh-empty">Pick a scene or create one.</div>
        )}
      </main>
    </div>
  );
}
