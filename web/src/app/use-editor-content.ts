import { useMemo, useState } from 'react';
import type { ImageContent } from '../../../shared/messages';
import type { EditorContent } from './use-editor-commands';

/** The editor's text and images, owned by the page: sending, a click and a fork all fill it. */
export function useEditorContent(): EditorContent {
  const [text, setText] = useState('');
  const [images, setImages] = useState<ImageContent[]>([]);
  return useMemo(() => ({ text, setText, images, setImages }), [text, images]);
}
