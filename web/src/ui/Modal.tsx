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
 * A small modal dialog: named by its title, closed by Escape or a click outside. Tab and
 * Shift+Tab stay inside it (focus-trap), and focus goes back where it was when it closes.
 */
export function Modal({ title, onClose, children, returnFocusTo }: ModalProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const returnTo = useRef(returnFocusTo);
  returnTo.current = returnFocusTo;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onClose]);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return undefined;
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
      trap.deactivate();
    };
  }, []);
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        ref={dialog}
        tabIndex={-1}
      >
        <h2>{title}</h2>
        {children}
      </div>
    </div>
  );
}
