import { useState } from 'react';
import type { TreeNode } from '../../../shared/session-entries';
import { Modal } from '../ui/Modal';

interface LabelDialogProps {
  entry: TreeNode;
  onSave(label: string | undefined): void;
  onCancel(): void;
}

/** Sets, changes or clears the label (bookmark) of one entry. */
export function LabelDialog({ entry, onSave, onCancel }: LabelDialogProps) {
  const [value, setValue] = useState(entry.label ?? '');
  return (
    <Modal title="Label" onClose={onCancel}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave(value.trim() || undefined);
        }}
      >
        <p className="dialog-note">{entry.preview || entry.type}</p>
        <input
          autoFocus
          type="text"
          aria-label="Label text"
          maxLength={200}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <div className="dialog-actions">
          <button type="submit">Save label</button>
          {entry.label ? (
            <button type="button" onClick={() => onSave(undefined)}>
              Clear label
            </button>
          ) : null}
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
