import { useEffect, useId, useRef, useState } from "react";
import { listMembers, setMember } from "./api.js";
import { boardTitle } from "./Boards.jsx";
import { failureText } from "./History.jsx";
import { Modal } from "./Modal.jsx";

// The roles an owner gives, as the dialog names them.
const ROLES = [
  { value: "editor", label: "Can edit" },
  { value: "viewer", label: "Can view" },
];
const verb = (role) => (role === "viewer" ? "view" : "edit");

// Words shows a server message, its `commands` as code.
function Words({ text }) {
  return text.split("`").map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

// RoleSelect picks editor or viewer (and shows a role it does not know,
// should the server have one).
function RoleSelect({ value, onChange, ...rest }) {
  const known = ROLES.some((r) => r.value === value);
  return (
    <select value={value} onChange={(e) => onChange(e.target.value)} {...rest}>
      {!known && <option value={value}>{value}</option>}
      {ROLES.map((r) => (
        <option key={r.value} value={r.value}>
          {r.label}
        </option>
      ))}
    </select>
  );
}

// ShareDialog is a board's sharing, for its owner: who owns it, the
// people it is shared with (each with a role to change, and Remove), and
// a row to add a person by name. Every change is one PUT
// /boards/:name/members/:person, whose answer is the new list.
//
// me is who is signed in (GET /me), to mark the owner as "you".
export function ShareDialog({ name, board, me, onClose }) {
  const id = useId();
  const title = boardTitle(name, board);
  const [sharing, setSharing] = useState(null); // {owner, members}, null until loaded
  const [loadProblem, setLoadProblem] = useState("");
  const [pending, setPending] = useState({}); // person → the role being set ("" to remove)
  const [rowProblem, setRowProblem] = useState("");
  const [said, setSaid] = useState(""); // what the last change did, for the status line
  const [person, setPerson] = useState("");
  const [role, setRole] = useState("editor");
  const [adding, setAdding] = useState(false);
  const [addProblem, setAddProblem] = useState(null); // {who, text}
  const [added, setAdded] = useState("");
  const personInput = useRef(null);
  // Answers apply in the order their requests were sent: a slow list
  // does not undo a change made since.
  const seq = useRef(0);

  useEffect(() => {
    const mine = ++seq.current;
    listMembers(name)
      .then((d) => mine === seq.current && setSharing(d))
      .catch((e) => mine === seq.current && setLoadProblem(failureText(e)));
  }, [name]);

  const put = async (who, r) => {
    const mine = ++seq.current;
    const d = await setMember(name, who, r);
    if (mine === seq.current) setSharing(d);
    setLoadProblem("");
    return d;
  };

  const change = async (m, r) => {
    if (m.name in pending) return;
    setPending((p) => ({ ...p, [m.name]: r }));
    setRowProblem("");
    setSaid("");
    try {
      await put(m.name, r);
      if (r) {
        setSaid(`${m.name} can now ${verb(r)} it.`);
      } else {
        // The row, and the focused Remove button with it, is gone.
        personInput.current?.focus();
        setSaid(`${m.name} no longer has access.`);
      }
    } catch (err) {
      setRowProblem(`Could not ${r ? "change" : "remove"} ${m.name}: ${failureText(err)}`);
    } finally {
      setPending(({ [m.name]: _, ...rest }) => rest);
    }
  };

  const owner = sharing?.owner || "";
  const add = async (e) => {
    e.preventDefault();
    const who = person.trim();
    if (!who || adding) return;
    setAddProblem(null);
    setSaid("");
    if (owner && who.toLowerCase() === owner.toLowerCase()) {
      setAddProblem({ who, text: `${owner} owns this board already.` });
      personInput.current?.focus();
      return;
    }
    setAdding(true);
    try {
      const d = await put(who, role);
      const shown = d.members?.find((m) => m.name.toLowerCase() === who.toLowerCase())?.name || who;
      setAdded(shown);
      setPerson("");
      setSaid(`Shared with ${shown}: they can ${verb(role)} it.`);
    } catch (err) {
      setAddProblem({ who, text: failureText(err) });
    } finally {
      setAdding(false);
      personInput.current?.focus();
    }
  };

  const members = sharing?.members || [];
  return (
    <Modal labelledBy={`${id}-h`} describedBy={`${id}-d`} className="dsh-share" onClose={onClose} testId="share-dialog">
      <header className="dsh-dialog-head">
        <h2 id={`${id}-h`}>Share “{title}”</h2>
        <button type="button" className="dsh-close" aria-label="Close" title="Close (Esc)" onClick={onClose}>
          ×
        </button>
      </header>
      <p id={`${id}-d`} className="dsh-dialog-about">
        People you share it with find it in their board list. Editors can draw on it; viewers can only look.
      </p>

      <section className="dsh-share-list" aria-labelledby={`${id}-people`}>
        <h3 id={`${id}-people`}>People with access</h3>
        {loadProblem && (
          <p className="dsh-problem" role="alert">
            Could not read who it is shared with: {loadProblem}
          </p>
        )}
        {sharing === null && !loadProblem && <p className="dsh-muted">Loading…</p>}
        {sharing && (
          <ul className="dsh-members">
            <li className="dsh-member" data-testid="owner" data-member={owner}>
              <span className="dsh-member-name">
                {owner || "?"}
                {me?.name && me.name === owner && <span className="dsh-muted"> (you)</span>}
              </span>
              <span className="dsh-member-owner">Owner</span>
            </li>
            {members.map((m) => {
              const r = pending[m.name] ?? m.role;
              const removing = pending[m.name] === "";
              return (
                <li key={m.name} className={m.name === added ? "dsh-member dsh-member-new" : "dsh-member"} data-member={m.name} aria-busy={m.name in pending}>
                  <span className="dsh-member-name">{m.name}</span>
                  <RoleSelect name="member-role" aria-label={`Role of ${m.name}`} value={removing ? m.role : r} onChange={(v) => change(m, v)} />
                  <button type="button" data-action="remove-member" aria-label={`Remove ${m.name}`} title="Stop sharing with them" onClick={() => change(m, "")}>
                    {removing ? "Removing…" : "Remove"}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {sharing && members.length === 0 && (
          <p className="dsh-muted" data-testid="no-members">
            Not shared with anyone yet.
          </p>
        )}
        {rowProblem && (
          <p className="dsh-problem" role="alert">
            {rowProblem}
          </p>
        )}
      </section>

      <form className="dsh-share-add" onSubmit={add} aria-labelledby={`${id}-add`}>
        <h3 id={`${id}-add`}>Add a person</h3>
        <div className="dsh-share-add-row">
          <label className="dsh-field dsh-grow">
            <span>Name</span>
            <input
              ref={personInput}
              data-autofocus
              name="person"
              value={person}
              maxLength={64}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="the name they sign in with"
              aria-invalid={addProblem ? true : undefined}
              aria-describedby={addProblem ? `${id}-add-problem` : `${id}-add-hint`}
              onChange={(e) => (setPerson(e.target.value), setAddProblem(null))}
            />
          </label>
          <label className="dsh-field">
            <span>Role</span>
            <RoleSelect name="role" value={role} onChange={setRole} />
          </label>
          <button type="submit" className="dsh-primary" data-action="add-member" disabled={adding || !person.trim()}>
            {adding ? "Adding…" : "Add"}
          </button>
        </div>
        {addProblem ? (
          <p id={`${id}-add-problem`} className="dsh-problem" role="alert">
            Could not add {addProblem.who}: <Words text={addProblem.text} />
          </p>
        ) : (
          <p id={`${id}-add-hint`} className="dsh-field-note">
            Someone with an account on this dsh host.
          </p>
        )}
      </form>

      <div className="dsh-dialog-actions">
        <p role="status" className="dsh-share-said">
          {said}
        </p>
        <span className="dsh-spacer" />
        <button type="button" data-action="done" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}
