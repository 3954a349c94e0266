import { Fragment, useCallback, useEffect, useId, useRef, useState } from "react";
import { listTokens, mintToken, revokeToken } from "./api.js";
import { ago, failureText, useNow } from "./History.jsx";
import { Modal, copyText } from "./Modal.jsx";

// ConnectDialog connects an agent (an MCP client: Claude, an IDE, a
// script) to one board: it mints a connect token that acts for the person,
// on this board, with at most their role, and shows how to use it, once.
// It also lists the board's tokens this person minted, to revoke them.
//
// role is the person's role on the board (owner, editor, viewer; unknown
// when undefined): a viewer can only connect a viewer.
export function ConnectDialog({ board, title, role, onClose }) {
  const id = useId();
  const canEdit = role !== "viewer";
  const [name, setName] = useState(`agent for ${board}`);
  const [tokenRole, setTokenRole] = useState(canEdit ? "editor" : "viewer");
  const [mayCreate, setMayCreate] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const [minted, setMinted] = useState(null);

  const [tokens, setTokens] = useState(null); // null until loaded
  const [listProblem, setListProblem] = useState("");
  const seq = useRef(0);
  const refresh = useCallback(() => {
    const mine = ++seq.current;
    listTokens(board)
      .then((list) => {
        if (mine !== seq.current) return;
        setTokens(list);
        setListProblem("");
      })
      .catch((e) => mine === seq.current && setListProblem(failureText(e)));
  }, [board]);
  useEffect(refresh, [refresh]);

  const create = async (e) => {
    e.preventDefault();
    setBusy(true);
    setProblem("");
    try {
      const res = await mintToken({ name: name.trim(), boards: [board], role: tokenRole, canCreateBoards: mayCreate });
      setMinted(res);
      refresh();
    } catch (err) {
      setProblem(failureText(err));
    } finally {
      setBusy(false);
    }
  };

  const another = () => {
    setMinted(null);
    setName(`agent for ${board}`);
  };

  return (
    <Modal labelledBy={`${id}-title`} describedBy={`${id}-about`} className="dsh-connect" onClose={onClose} testId="connect-dialog">
      <header className="dsh-dialog-head">
        <h2 id={`${id}-title`}>Connect an agent to “{title || board}”</h2>
        <button type="button" className="dsh-close" aria-label="Close" title="Close (Esc)" onClick={onClose}>
          ×
        </button>
      </header>
      <p id={`${id}-about`} className="dsh-dialog-about" hidden={!!minted}>
        An agent (Claude, an IDE, a script) reaches this board over MCP with a token that acts for you, with at most your rights here. Its changes show in
        the history under the token&rsquo;s name.
      </p>

      {minted ? (
        <Minted minted={minted} onAnother={another} onDone={onClose} />
      ) : (
        <form className="dsh-connect-form" onSubmit={create}>
          <label className="dsh-field">
            <span>Token name</span>
            <input data-autofocus autoFocus name="token-name" value={name} maxLength={80} required onChange={(e) => setName(e.target.value)} />
          </label>
          <fieldset className="dsh-field">
            <legend>The agent may</legend>
            <label className={canEdit ? "" : "dsh-disabled"}>
              <input type="radio" name="token-role" value="editor" checked={tokenRole === "editor"} disabled={!canEdit} onChange={() => setTokenRole("editor")} />{" "}
              <strong>edit</strong>: draw and change this board
            </label>
            {!canEdit && <p className="dsh-field-hint">You can only view this board, so an agent you connect can only view it too.</p>}
            <label>
              <input type="radio" name="token-role" value="viewer" checked={tokenRole === "viewer"} onChange={() => setTokenRole("viewer")} /> <strong>view</strong>:
              read it only
            </label>
          </fieldset>
          <label className="dsh-check">
            <input type="checkbox" name="can-create-boards" checked={mayCreate} onChange={(e) => setMayCreate(e.target.checked)} /> It may also create new boards
            (each is yours, and it can edit it)
          </label>
          {problem && (
            <p className="dsh-problem" role="alert">
              Could not create the token: {problem}
            </p>
          )}
          <div className="dsh-dialog-actions">
            <button type="submit" className="dsh-primary" data-action="mint" disabled={busy || !name.trim()}>
              {busy ? "Creating…" : "Create token"}
            </button>
            <button type="button" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}

      <TokenList tokens={tokens} problem={listProblem} onRevoked={refresh} justMinted={minted?.id} />
    </Modal>
  );
}

// Minted shows a new token's endpoint and configuration, this once.
function Minted({ minted, onAnother, onDone }) {
  const id = useId();
  const snippet = useRef(null);
  const [copied, setCopied] = useState(""); // "" | copied | selected
  const copy = async () => setCopied((await copyText(minted.configSnippet, snippet.current)) ? "copied" : "selected");
  return (
    <section className="dsh-minted" aria-labelledby={`${id}-h`} data-testid="minted">
      <h3 id={`${id}-h`}>Token “{minted.name}” created</h3>
      <p className="dsh-once" role="status">
        <strong>Copy it now: this is the only time the token is shown.</strong> dsh keeps only a fingerprint of it. If it is lost, revoke it and create
        another.
      </p>
      {minted.note && (
        <p className="dsh-lowered" role="alert" data-testid="note">
          {minted.note}.
        </p>
      )}
      <p className="dsh-minted-role">
        It may <strong>{minted.role === "viewer" ? "view" : "edit"}</strong> {(minted.boards || []).join(", ")}
        {minted.canCreateBoards ? " and create new boards" : ""}.
      </p>
      <label className="dsh-field">
        <span>MCP URL</span>
        <input readOnly className="dsh-mono" value={minted.mcpUrl} data-testid="mcp-url" onFocus={(e) => e.target.select()} />
      </label>
      <div className="dsh-field">
        <span id={`${id}-snippet`}>Client configuration (paste it into your MCP client&rsquo;s settings)</span>
        <pre ref={snippet} className="dsh-snippet" tabIndex={0} aria-labelledby={`${id}-snippet`} aria-readonly="true" data-testid="snippet">
          {minted.configSnippet}
        </pre>
      </div>
      <div className="dsh-dialog-actions">
        <button type="button" className="dsh-primary" data-action="copy" data-autofocus autoFocus onClick={copy}>
          {copied === "copied" ? "Copied" : "Copy"}
        </button>
        <span role="status" className="dsh-copy-status">
          {copied === "copied" ? "Copied to the clipboard." : copied === "selected" ? "The browser did not allow copying: the text is selected, press Ctrl+C." : ""}
        </span>
        <span className="dsh-spacer" />
        <button type="button" data-action="another" onClick={onAnother}>
          Create another
        </button>
        <button type="button" data-action="done" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

// TokenList is this board's tokens (those this person minted, or every
// one for an admin), each with Revoke, which asks first.
function TokenList({ tokens, problem, onRevoked, justMinted }) {
  const id = useId();
  const now = useNow();
  const [confirming, setConfirming] = useState("");
  const [revoking, setRevoking] = useState("");
  const [revokeProblem, setRevokeProblem] = useState("");

  const revoke = async (t) => {
    setRevoking(t.id);
    setRevokeProblem("");
    try {
      await revokeToken(t.id);
      setConfirming("");
      onRevoked();
    } catch (e) {
      setRevokeProblem(`Could not revoke “${t.name}”: ${failureText(e)}`);
    } finally {
      setRevoking("");
    }
  };

  return (
    <section className="dsh-tokens" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Tokens for this board</h3>
      {problem && (
        <p className="dsh-problem" role="alert">
          Could not list the tokens: {problem}
        </p>
      )}
      {revokeProblem && (
        <p className="dsh-problem" role="alert">
          {revokeProblem}
        </p>
      )}
      {tokens === null && !problem && <p className="dsh-muted">Loading…</p>}
      {tokens?.length === 0 && <p className="dsh-muted">None yet.</p>}
      {tokens?.length > 0 && (
        <table className="dsh-token-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">May</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="dsh-sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <Fragment key={t.id}>
                <tr data-token={t.id} data-token-name={t.name} className={t.id === justMinted ? "dsh-token-new" : ""}>
                  <th scope="row">{t.name}</th>
                  <td>{t.role === "viewer" ? "view" : "edit"}</td>
                  <td title={new Date(t.createdAt).toLocaleString()}>{ago(t.createdAt, now)}</td>
                  <td title={t.lastUsedAt ? new Date(t.lastUsedAt).toLocaleString() : ""}>
                    {t.lastUsedAt ? ago(t.lastUsedAt, now) : "never"}
                    {t.expiresAt && <span className="dsh-muted"> · expires {new Date(t.expiresAt).toLocaleDateString()}</span>}
                  </td>
                  <td className="dsh-token-actions">
                    <button
                      type="button"
                      data-action="revoke"
                      aria-label={`Revoke ${t.name}`}
                      aria-expanded={confirming === t.id}
                      disabled={confirming === t.id}
                      onClick={() => setConfirming(t.id)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
                {confirming === t.id && (
                  <tr className="dsh-confirm-row" data-confirm-for={t.name}>
                    <td colSpan={5}>
                      <div role="group" aria-label={`Revoke ${t.name}?`} className="dsh-confirm">
                        <span>
                          Revoke <strong>{t.name}</strong>? Agents using it stop at once, and it cannot be undone.
                        </span>
                        <button type="button" className="dsh-danger" data-action="confirm-revoke" disabled={revoking === t.id} onClick={() => revoke(t)} autoFocus>
                          {revoking === t.id ? "Revoking…" : "Revoke"}
                        </button>
                        <button type="button" data-action="cancel-revoke" disabled={revoking === t.id} onClick={() => setConfirming("")}>
                          Keep it
                        </button>
                      </div>
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
