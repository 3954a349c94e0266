import { useEffect, useRef } from "react";

// Modal is a native modal <dialog>, shown while it is mounted: the browser
// keeps focus inside it and makes the rest of the page inert; Escape (the
// dialog's cancel) and a click on the backdrop call onClose. Focus goes to
// the element marked data-autofocus (else the browser's first focusable
// one) and, once it is gone, back to what had it before it opened. (What
// mounts inside it later takes focus with React's autoFocus.)
//
// labelledBy is the id of its heading.
export function Modal({ labelledBy, describedBy, className = "", onClose, children, testId }) {
  const ref = useRef(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dlg = ref.current;
    const opener = document.activeElement;
    if (!dlg.open) dlg.showModal();
    dlg.querySelector("[data-autofocus]")?.focus();
    const onCancel = (e) => {
      // Closed by its owner, so the dialog stays in step with React.
      e.preventDefault();
      onCloseRef.current?.();
    };
    // A click whose target is the dialog itself landed on its padding or
    // on the backdrop: only outside its box closes it.
    const onClick = (e) => {
      if (e.target !== dlg) return;
      const r = dlg.getBoundingClientRect();
      if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) onCloseRef.current?.();
    };
    dlg.addEventListener("cancel", onCancel);
    dlg.addEventListener("click", onClick);
    return () => {
      dlg.removeEventListener("cancel", onCancel);
      dlg.removeEventListener("click", onClick);
      if (dlg.open) dlg.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog ref={ref} className={`dsh-dialog ${className}`} aria-labelledby={labelledBy} aria-describedby={describedBy} data-testid={testId}>
      {children}
    </dialog>
  );
}

// copyText puts text on the clipboard; where the browser refuses, it
// selects the text in el so Ctrl+C copies it. Resolves to whether it was
// copied.
export async function copyText(text, el) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // not allowed here (no focus, no permission): select it instead
  }
  if (el) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}
