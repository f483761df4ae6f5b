/*
 * A node's text as plain words: the server's preview of an answer is its Markdown collapsed to
 * one line, so `**bold**`, `` `code` ``, `[link](url)`, `# Heading` and list dashes would show as
 * typed. This takes the marks away and keeps the words; it sees one short line (the preview is
 * cut at 80 characters), so it is cheap to run on every node drawn.
 */

const RULES: [RegExp, string][] = [
  [/```+\w*/g, ' '], // code fences
  [/!\[([^\]]*)\]\([^)]*\)/g, '$1'], // images: their alt text
  [/\[([^\]]+)\]\([^)]*\)/g, '$1'], // links: their text
  [/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2'], // bold
  [/(^|[\s(])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=$|[\s).,;:!?])/g, '$1$2'], // italics
  [/~~(?=\S)(.+?)(?<=\S)~~/g, '$1'], // strikethrough
  [/`+([^`]*)`+/g, '$1'], // inline code
  [/(^|\s)#{1,6}\s+/g, '$1'], // headings
  [/(^|[:.!?]\s*|\s{2,})[-*+]\s+(?=\S)/g, '$1'], // list items (at the start or after a sentence)
  [/(^|[:.!?]\s*)\d+[.)]\s+(?=\S)/g, '$1'], // numbered items
  [/(^|\s)>\s+/g, '$1'], // quotes
  [/\|/g, ' '], // table cells
  [/(^|\s):?-{3,}:?(?=\s|$)/g, '$1'], // a table's rule, or a horizontal one
];

export function plainPreview(preview: string): string {
  let text = preview;
  for (const [pattern, replacement] of RULES) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, ' ').trim();
}

/** Roles whose text is Markdown; a tool's output and a shell's are shown as they are. */
const MARKDOWN_ROLES = new Set(['user', 'assistant', 'custom', 'compaction', 'branch_summary']);

/** The text a node of `role` shows for its preview. */
export function nodeText(role: string, preview: string): string {
  return MARKDOWN_ROLES.has(role) ? plainPreview(preview) : preview;
}
