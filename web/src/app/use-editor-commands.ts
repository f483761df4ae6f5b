import { useCallback, useEffect, useState } from 'react';
import type { ImageContent } from '../../../shared/messages';
import type { QueueName, SendMode } from '../chat/Editor';
import type { ArborSocket } from '../socket/arbor-socket';
import { parseShellCommand } from '../../../shared/shell-command';

/** What the editor held, kept aside while a click's prompt fills it. */
export interface Draft {
  text: string;
  images: ImageContent[];
}

/** The editor's content and its setters, owned by the page. */
export interface EditorContent {
  text: string;
  setText(update: string | ((current: string) => string)): void;
  images: ImageContent[];
  setImages(update: ImageContent[] | ((current: ImageContent[]) => ImageContent[])): void;
  /** An unsent draft a click replaced, offered back until the next send (or null). */
  draft: Draft | null;
  setDraft(draft: Draft | null): void;
}

/**
 * What the editor's buttons and keys do in the open session: send (a prompt, a steer or a
 * follow-up), abort, and take queued messages back. A message sent before the session is open
 * and connected (a new user typing at once) waits for it; a refused send puts its text and images
 * back unless the user has typed something new meanwhile.
 */
export function useEditorCommands({
  socket,
  sessionId,
  ready,
  editor,
  fail,
}: {
  socket: ArborSocket;
  sessionId: string | null;
  ready: boolean;
  editor: EditorContent;
  fail(error: unknown): void;
}) {
  const [pendingSend, setPendingSend] = useState<SendMode | null>(null);
  const { text: editorText, setText: setEditorText, images, setImages, setDraft } = editor;

  const send = useCallback(
    (mode: SendMode) => {
      if (!sessionId || !ready) {
        setPendingSend(mode);
        return;
      }
      const text = editorText;
      const attached = images;
      setEditorText('');
      setImages([]);
      setDraft(null);
      const shell = parseShellCommand(text);
      const command = shell
        ? ({ type: 'bash', sessionId, ...shell } as const)
        : ({
            type: mode,
            sessionId,
            text,
            ...(attached.length ? { images: attached } : {}),
          } as const);
      socket.request(command).catch((error: unknown) => {
        setEditorText((current) => (current ? current : text));
        setImages((current) => (current.length ? current : attached));
        fail(error);
      });
    },
    [sessionId, ready, editorText, images, socket, fail, setEditorText, setImages, setDraft],
  );

  useEffect(() => {
    if (!pendingSend || !ready) return;
    setPendingSend(null);
    send(pendingSend);
  }, [pendingSend, ready, send]);

  const abort = useCallback(() => {
    if (sessionId) socket.request<'abort'>({ type: 'abort', sessionId }).catch(fail);
  }, [sessionId, socket, fail]);

  const clearQueue = useCallback(() => {
    if (!sessionId) return;
    socket
      .request<'clear_queue'>({ type: 'clear_queue', sessionId })
      .then(({ steering, followUp }) => {
        const queued = [...steering, ...followUp].join('\n\n');
        if (queued) setEditorText((current) => (current ? `${queued}\n\n${current}` : queued));
      })
      .catch(fail);
  }, [sessionId, socket, fail, setEditorText]);

  const dequeue = useCallback(
    (queue: QueueName, index: number, text: string, then: 'edit' | 'drop') => {
      if (!sessionId) return;
      socket
        .request<'dequeue'>({ type: 'dequeue', sessionId, queue, index, text })
        .then((taken) => {
          if (then === 'drop') return;
          setEditorText((current) => (current ? `${taken.text}\n\n${current}` : taken.text));
          if (taken.images.length > 0) setImages((current) => [...taken.images, ...current]);
        })
        .catch(fail);
    },
    [sessionId, socket, fail, setEditorText, setImages],
  );

  return { send, abort, clearQueue, dequeue };
}
