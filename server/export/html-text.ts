import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { fitsMarkdown, MARKDOWN_MAX_CHARS } from '../../shared/markdown-limits.js';

/*
 * Text into an exported page. Everything a session holds is data from people, models and tools, so
 * every string passes through `escapeHtml`, and markdown through micromark with raw HTML escaped and
 * dangerous link protocols (`javascript:`, `data:` in links) dropped: its defaults, kept on purpose.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * A markdown image micromark wrote (its attribute values escaped, so no `"` inside) whose source
 * is not an inline image: an export never loads anything, so it becomes a link to the image.
 */
const REMOTE_IMAGE =
  /<img src="(?!data:image\/(?:png|jpeg|gif|webp);base64,)([^"]*)" alt="([^"]*)"(?: title="[^"]*")? \/>/g;

/** Markdown as HTML: GitHub's flavour, no raw HTML, no script-bearing links, no remote images. */
function micromarkHtml(text: string): string {
  return micromark(text, {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
  }).replace(REMOTE_IMAGE, (_, src: string, alt: string) =>
    src ? `<a href="${src}">[image: ${alt}]</a>` : `[image: ${alt}]`,
  );
}

/** Text shown as it is, with a note saying why it is not rendered. */
function plainHtml(text: string, why: string): string {
  return `<p class="note">${escapeHtml(why)}</p><pre class="plain">${escapeHtml(text)}</pre>`;
}

/** Renders one markdown text of an export. */
export type MarkdownRenderer = (text: string) => string;

/**
 * A renderer for one export. Each text longer than the shared limit is shown plain, and once
 * markdown has taken `budgetMs` of this export in all, every later text is shown plain too: a
 * session full of texts each just under the limit still ends in bounded time.
 */
export function markdownRenderer(budgetMs = Number.POSITIVE_INFINITY): MarkdownRenderer {
  let spent = 0;
  return (text) => {
    if (!fitsMarkdown(text)) {
      return plainHtml(
        text,
        `Shown as plain text: longer than ${MARKDOWN_MAX_CHARS.toLocaleString('en')} characters.`,
      );
    }
    if (spent >= budgetMs) {
      return plainHtml(text, 'Shown as plain text: this export spent its time on markdown.');
    }
    const start = performance.now();
    try {
      return micromarkHtml(text);
    } finally {
      spent += performance.now() - start;
    }
  };
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An image block as an inline `<img>` with a data URL; a note for a type or body that is not one. */
export function imageHtml(mimeType: string, data: string): string {
  if (!IMAGE_TYPES.has(mimeType) || !BASE64.test(data)) {
    return `<p class="note">(an image Arbor cannot show: ${escapeHtml(mimeType.slice(0, 60))})</p>`;
  }
  return `<img alt="Attached image" src="data:${mimeType};base64,${data}">`;
}
