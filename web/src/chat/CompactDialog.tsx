import { useState, type RefObject } from 'react';
import { Modal } from '../ui/Modal';

/** "Compact…": what the summary should keep in mind, then Compact. */
export function CompactDialog(props: {
  onCompact(instructions?: string): void;
  onClose(): void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const [instructions, setInstructions] = useState('');
  return (
    <Modal
      title="Compact the conversation"
      onClose={props.onClose}
      returnFocusTo={props.returnFocusTo}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          props.onCompact(instructions.trim() || undefined);
          props.onClose();
        }}
      >
        <p className="dialog-note">
          Older messages are summarised for the model; the chat and the tree keep them all.
        </p>
        <textarea
          autoFocus
          aria-label="Compaction focus (optional)"
          placeholder="What the summary should keep (optional)"
          rows={3}
          maxLength={2000}
          value={instructions}
          onChange={(event) => setInstructions(event.target.value)}
        />
        <div className="dialog-actions">
          <button type="submit">Compact</button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
