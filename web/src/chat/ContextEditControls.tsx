import { useState } from 'react';
import type { ContextEditRequest, ContextEditShown } from '../state/context-edits';
import { Modal } from '../ui/Modal';

/*
 * A chat message's part of the model's context (decision 064): buttons to hide it from the
 * model, replace what the model sees of it, or undo the edit; each writes a context_edit at the
 * leaf, without branching. The note says what the model sees instead of the message.
 */

export interface ContextEditActions {
  /** False while the agent runs: an edit waits until the run has ended. */
  idle: boolean;
  edit(targetId: string, request: ContextEditRequest): void;
}

interface ControlsProps {
  entryId: string;
  /** The message's own text, to start a replacement from. */
  originalText: string;
  edit: ContextEditShown | undefined;
  actions: ContextEditActions;
}

const BUSY_TITLE = 'Wait for the run to end to edit the context';

export function ContextEditControls({ entryId, originalText, edit, actions }: ControlsProps) {
  const [replacing, setReplacing] = useState<string | null>(null);
  const disabled = !actions.idle;
  const title = disabled ? BUSY_TITLE : undefined;
  return (
    <span className="context-edit-controls">
      {edit?.kind !== 'hidden' ? (
        <button
          type="button"
          disabled={disabled}
          title={title ?? 'The model will not see this message; it stays in the history'}
          onClick={() => actions.edit(entryId, null)}
        >
          Hide from the model
        </button>
      ) : null}
      <button
        type="button"
        disabled={disabled}
        title={title ?? 'Give the model other content for this message'}
        onClick={() => setReplacing(edit?.kind === 'replaced' ? edit.text : originalText)}
      >
        Replace for the model
      </button>
      {edit ? (
        <button
          type="button"
          disabled={disabled}
          title={title ?? 'The model sees this message as it is again'}
          onClick={() => actions.edit(entryId, { restore: true })}
        >
          Undo context edit
        </button>
      ) : null}
      {replacing !== null ? (
        <Modal title="Replace for the model" onClose={() => setReplacing(null)}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              actions.edit(entryId, replacing);
              setReplacing(null);
            }}
          >
            <p className="dialog-note">
              The model will see this text instead of the message; the chat keeps the original.
            </p>
            <textarea
              autoFocus
              aria-label="Replacement for the model"
              rows={6}
              value={replacing}
              onChange={(event) => setReplacing(event.target.value)}
            />
            <div className="dialog-actions">
              <button type="submit">Save replacement</button>
              <button type="button" onClick={() => setReplacing(null)}>
                Cancel
              </button>
            </div>
          </form>
        </Modal>
      ) : null}
    </span>
  );
}

/** What the model sees of a message that a context edit changed. */
export function ContextEditNote({ edit }: { edit: ContextEditShown }) {
  if (edit.kind === 'hidden') {
    return <p className="context-edit-note">Hidden from the model</p>;
  }
  return (
    <div className="context-edit-note context-replacement">
      <span className="context-edit-label">The model sees instead:</span>
      <div className="plain-text">{edit.text}</div>
    </div>
  );
}
