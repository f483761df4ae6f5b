import { useMemo, useState } from 'react';
import type { ImageContent } from '../../../shared/messages';
import type { Draft, EditorContent } from './use-editor-commands';

/** The editor's text and images, owned by the page: sending, a click and a fork all fill it. */
export function useEditorContent(): EditorContent {
  const [text, setText] = useState('');
  const [images, setImages] = useState<ImageContent[]>([]);
  const [draft, setDraft] = useState<Draft | null>(null);
  return useMemo(
    () => ({ text, setText, images, setImages, draft, setDraft }),
    [text, images, draft],
  );
}
