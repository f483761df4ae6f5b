import { promptLengthNote } from './prompt-length';

/**
 * The line beside Send that says why it cannot be used now, or how near the message is to the
 * length limit: `blocked` (the server is away) first, else the length note. Its id names it to
 * the Send button (aria-describedby) whenever it refuses.
 */
export function SendNote({ length, blocked }: { length: number; blocked: string | null }) {
  const note = promptLengthNote(length);
  if (blocked) {
    return (
      <span id="send-note" className="send-note">
        {blocked}
      </span>
    );
  }
  if (!note) return null;
  return (
    <span
      id="send-note"
      className={note.over ? 'send-note send-note-over' : 'send-note'}
      role={note.over ? 'alert' : undefined}
    >
      {note.text}
    </span>
  );
}

/** Why Send refuses this message now, or null when it may go. */
export function sendRefusal(length: number, blocked: string | null): string | null {
  return (
    blocked ?? (promptLengthNote(length)?.over ? 'The message is over the length limit.' : null)
  );
}
