import { parse } from 'yaml';

/*
 * pi's frontmatter rule (utils/frontmatter.js), with the YAML library pi uses: newlines
 * normalised, a leading `---` line up to the next `\n---` is YAML, the rest (trimmed) is the
 * body. No frontmatter gives `{}` and the whole text. Invalid YAML throws with the parser's
 * message, which callers turn into a warning.
 */

export interface Frontmatter {
  frontmatter: Record<string, unknown>;
  body: string;
}

export function parseFrontmatter(content: string): Frontmatter {
  const normalized = content.replace(/\r\n/g, '\n').replace(/\r/g, '\n');
  if (!normalized.startsWith('---')) return { frontmatter: {}, body: normalized };
  const end = normalized.indexOf('\n---', 3);
  if (end === -1) return { frontmatter: {}, body: normalized };
  const yaml = normalized.slice(4, end);
  const body = normalized.slice(end + 4).trim();
  if (!yaml) return { frontmatter: {}, body };
  const parsed: unknown = parse(yaml);
  const frontmatter =
    parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  return { frontmatter, body };
}
