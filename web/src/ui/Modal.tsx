import { createFocusTrap } from 'focus-trap';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

interface ModalProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  /**
   * Where focus goes when the dialog closes, when not where it was when it opened (a dialog
   * opened from a menu item, which is gone by then, gives focus back to the menu's button).
   */
  returnFocusTo?: RefObject<HTMLElement | null> | undefined;
}

/**
 * A small modal dialog: the platform's `<dialog>` opened with `showModal()`, so the page behind
 * it is inert (no click, focus or screen reader reaches it) and it sits above everything. Named by
 * its title, closed by Escape or a click on the backdrop. Tab and Shift+Tab go round inside it
 * (focus-trap), and focus goes back where it was when it closes.
 */
export function Modal({ title, onClose, children, returnFocusTo }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const returnTo = useRef(returnFocusTo);
  returnTo.current = returnFocusTo;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        // Ours alone: nothing behind the dialog (the editor's abort) hears it.
        event.stopPropagation();
        event.preventDefault();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onClose]);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return undefined;
    if (!element.open) element.showModal();
    const trap = createFocusTrap(element, {
      // Escape and clicks outside are this component's (above), so every dialog closes one way.
      escapeDeactivates: false,
      allowOutsideClick: true,
      // Focus starts where a child put it (autoFocus, an effect), else on the first control.
      fallbackFocus: element,
      returnFocusOnDeactivate: true,
      // Read when the dialog closes: the ref is filled by then.
      setReturnFocus: (previous) => returnTo.current?.current ?? previous,
    });
    trap.activate();
    return () => {
      element.close();
      trap.deactivate();
    };
  }, []);
  return (
    <dialog
      className="modal"
      aria-label={title}
      ref={dialog}
      // Escape is handled above; the platform's own closing would bypass onClose.
      onCancel={(event) => event.preventDefault()}
      onMouseDown={(event) => {
        // The dialog element itself is hit only on its backdrop: its content fills it.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="modal-body">
        <h2>{title}</h2>
        {children}
      </div>
    </dialog>
  );
}
