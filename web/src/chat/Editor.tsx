import { memo, useEffect, useRef } from 'react';
import { ShellHint } from './ShellHint';
import type { ImageContent } from '../../../shared/messages';
import { openView } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { SendNote, sendRefusal } from './SendNote';
import { SlashMenu } from './SlashMenu';
import type { SlashItem } from './slash-menu';
import { useSlashMenu } from './use-slash-menu';

export type SendMode = 'prompt' | 'steer' | 'follow_up';

interface EditorProps {
  value: string;
  onChange(value: string): void;
  /** Focuses the editor, caret at the end, each time it changes (a tap on a prompt, narrow screens). */
  focusRequest?: number;
  images: ImageContent[];
  onImages(images: ImageContent[]): void;
  canWrite: boolean;
  /** False until a session is open and connected; a send made before waits for it. */
  ready: boolean;
  /** Why nothing can be sent now (the server is away), or null; the text stays in the editor. */
  sendBlocked: string | null;
  onSend(mode: SendMode): void;
  onAbort(): void;
  /** Takes every queued message back into the editor. */
  onClearQueue(): void;
  /** Takes one queued message back: into the editor (`edit`) or away (`drop`). */
  onDequeue(queue: QueueName, index: number, text: string, then: 'edit' | 'drop'): void;
  /** A draft a click on a prompt replaced is kept: "Restore draft" puts it back. */
  hasDraft?: boolean;
  onRestoreDraft?(): void;
  /** The workspace's prompt templates and skills, offered by the `/` menu. */
  slashItems?: readonly SlashItem[];
  /** Why the workspace's templates and skills are off, said where the `/` menu would list them. */
  slashOff?: string | null;
}

const NO_ITEMS: readonly SlashItem[] = [];
const NO_QUEUE: string[] = [];

export type QueueName = 'steering' | 'followUp';

const QUEUE_BADGE: Record<QueueName, string> = { steering: 'steer', followUp: 'follow-up' };

function readImage(file: File): Promise<ImageContent> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      const comma = url.indexOf(',');
      resolve({ type: 'image', mimeType: file.type, data: url.slice(comma + 1) });
    };
    reader.onerror = () => reject(reader.error ?? new Error('could not read the image'));
    reader.readAsDataURL(file);
  });
}

/**
 * The message editor. Enter sends (a prompt when idle, a steer while the agent runs), Alt+Enter
 * queues a follow-up while it runs, Shift+Enter is a new line, Escape aborts a run. Pasted images
 * are attached. Whether the agent runs, and its queues, are read from the page store.
 */
export const Editor = memo(function Editor(props: EditorProps) {
  const { value, images, canWrite } = props;
  const running = usePage((state) => openView(state)?.state.isStreaming ?? false);
  const steering = usePage((state) => openView(state)?.state.steering ?? NO_QUEUE);
  const followUp = usePage((state) => openView(state)?.state.followUp ?? NO_QUEUE);
  const queues = { steering, followUp };
  const area = useRef<HTMLTextAreaElement>(null);
  const empty = value.trim() === '' && images.length === 0;
  // A message the server would refuse (too long), or one it cannot receive now, is not sent.
  const refusal = sendRefusal(value.length, props.sendBlocked);
  const canSend = canWrite && !empty && refusal === null;
  const { focusRequest, onChange } = props;
  const slash = useSlashMenu({ value, items: props.slashItems ?? NO_ITEMS, onChange, area });
  useEffect(() => {
    const element = area.current;
    if (!focusRequest || !element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, [focusRequest]);

  return (
    <div className="editor">
      {queues.steering.length + queues.followUp.length > 0 ? (
        <div className="queue" aria-label="Queued messages">
          <ul>
            {(['steering', 'followUp'] as const).flatMap((queue) =>
              queues[queue].map((text, i) => (
                <li key={`${queue}${i}`}>
                  <span className="badge">{QUEUE_BADGE[queue]}</span>{' '}
                  <span className="queued-text">{text}</span>
                  {canWrite ? (
                    <span className="queued-actions">
                      <button
                        type="button"
                        aria-label={`Edit queued ${QUEUE_BADGE[queue]}: ${text}`}
                        title="Take it back into the editor"
                        onClick={() => props.onDequeue(queue, i, text, 'edit')}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        aria-label={`Remove queued ${QUEUE_BADGE[queue]}: ${text}`}
                        title="Remove it from the queue"
                        onClick={() => props.onDequeue(queue, i, text, 'drop')}
                      >
                        Remove
                      </button>
                    </span>
                  ) : null}
                </li>
              )),
            )}
          </ul>
          {canWrite ? (
            <button type="button" onClick={props.onClearQueue}>
              Edit all
            </button>
          ) : null}
        </div>
      ) : null}
      {images.length > 0 ? (
        <div className="attachments">
          {images.map((image, i) => (
            <figure key={i}>
              <img
                alt={`pasted image ${i + 1}`}
                src={`data:${image.mimeType};base64,${image.data}`}
              />
              <button
                type="button"
                aria-label={`Remove image ${i + 1}`}
                onClick={() => props.onImages(images.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </figure>
          ))}
        </div>
      ) : null}
      <SlashMenu menu={slash} offReason={props.slashOff ?? null} />
      <textarea
        ref={area}
        {...slash.ariaProps}
        aria-label="Message"
        aria-describedby="shell-hint"
        autoFocus
        rows={3}
        disabled={!canWrite}
        placeholder={
          !canWrite
            ? 'Read only: you can view this session but not write to it.'
            : running
              ? 'Enter steers the running agent, Alt+Enter queues a follow-up, Escape stops'
              : 'Message (Enter sends, Shift+Enter for a new line)'
        }
        value={value}
        onChange={(event) => {
          slash.onCaret(event);
          onChange(event.target.value);
        }}
        onSelect={slash.onCaret}
        onKeyDown={(event) => {
          if (slash.onKeyDown(event)) return;
          if (event.key === 'Escape' && running && props.sendBlocked === null) {
            event.preventDefault();
            props.onAbort();
            return;
          }
          if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
          event.preventDefault();
          if (!canSend) return;
          props.onSend(running ? (event.altKey ? 'follow_up' : 'steer') : 'prompt');
        }}
        onPaste={(event) => {
          const files = [...event.clipboardData.files].filter((f) => f.type.startsWith('image/'));
          if (files.length === 0) return;
          event.preventDefault();
          void Promise.all(files.map(readImage)).then((read) =>
            props.onImages([...images, ...read]),
          );
        }}
      />
      <ShellHint text={value} />
      <div className="editor-actions">
        <SendNote length={value.length} blocked={props.sendBlocked} />
        {props.hasDraft && props.onRestoreDraft ? (
          <button
            type="button"
            onClick={props.onRestoreDraft}
            title="Put back what you had typed before the click on a prompt"
          >
            Restore draft
          </button>
        ) : null}
        <button
          type="button"
          disabled={!canSend}
          aria-describedby={refusal ? 'send-note' : undefined}
          onClick={() => props.onSend(running ? 'steer' : 'prompt')}
          title={refusal ?? (running ? 'Steer the running agent (Enter)' : 'Send (Enter)')}
        >
          Send
        </button>
        {running ? (
          <>
            <button
              type="button"
              disabled={!canSend}
              onClick={() => props.onSend('follow_up')}
              title="Queue a follow-up for when the agent stops (Alt+Enter)"
            >
              Queue follow-up
            </button>
            <button
              type="button"
              className="danger"
              disabled={!canWrite || props.sendBlocked !== null}
              title={props.sendBlocked ?? 'Stop the run (Escape)'}
              onClick={props.onAbort}
            >
              Abort
            </button>
          </>
        ) : null}
      </div>
    </div>
  );
});
