import { contentText, type AgentMessage, type ImageContent } from '../../../shared/messages';

/** What a click on a prompt puts in the editor: its text and images (null: body not at hand). */
export function editorContentOf(
  body: AgentMessage | undefined,
): { text: string; images: ImageContent[] } | null {
  if (!body || (body.role !== 'user' && body.role !== 'custom')) return null;
  const content = body.content;
  const images =
    typeof content === 'string'
      ? []
      : content.filter((block): block is ImageContent => block.type === 'image');
  return { text: contentText(content), images };
}
