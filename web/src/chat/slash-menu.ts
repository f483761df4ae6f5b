import type { WorkspaceResources } from '../../../shared/resources';
import { fuzzyFilter } from './fuzzy-filter';

/*
 * The editor's `/` menu, as pure functions (decision 086): when it opens, what it offers for the
 * text typed so far, and what choosing an item does to the editor's text. The page inserts the
 * command as typed; the server expands a template or a `/skill:` when the prompt arrives.
 */

export interface SlashItem {
  /** What is inserted after the `/`: a template's name, or `skill:<name>`. */
  command: string;
  kind: 'template' | 'skill';
  description: string;
  /** A template's `argument-hint`, shown after its name. */
  argumentHint?: string;
}

/**
 * The name typed after a leading `/` while the caret is still inside it: the editor's text starts
 * with `/` and neither a space nor a line break has followed. Null when the menu has no business
 * being open (text elsewhere, arguments being typed, the caret moved past the name).
 */
export function slashQuery(text: string, caret: number): string | null {
  if (!text.startsWith('/')) return null;
  const end = text.search(/\s/);
  const nameEnd = end === -1 ? text.length : end;
  if (caret < 1 || caret > nameEnd) return null;
  return text.slice(1, nameEnd);
}

/** Everything the menu can offer, templates first (as pi lists them), then skills. */
export function slashItems(resources: WorkspaceResources | null): SlashItem[] {
  if (!resources?.loaded) return [];
  return [
    ...resources.templates.map((template): SlashItem => ({
      command: template.name,
      kind: 'template',
      description: template.description,
      ...(template.argumentHint ? { argumentHint: template.argumentHint } : {}),
    })),
    ...resources.skills.map((skill): SlashItem => ({
      command: `skill:${skill.name}`,
      kind: 'skill',
      description: skill.description,
    })),
  ];
}

/**
 * The items that match `query`, best first, by pi's fuzzy rule: a skill matches on its bare name
 * first (`/rev` finds `skill:review`), and on `skill:<name>` only after every bare-name match.
 */
export function filterSlashItems(items: readonly SlashItem[], query: string): SlashItem[] {
  const bare = fuzzyFilter(items, query, (item) =>
    item.kind === 'skill' ? item.command.slice('skill:'.length) : item.command,
  );
  const matched = new Set(bare);
  const full = fuzzyFilter(
    items.filter((item) => item.kind === 'skill' && !matched.has(item)),
    query,
    (item) => item.command,
  );
  return [...bare, ...full];
}

/**
 * The editor's text once `item` is chosen: the typed name replaced by `/command ` (what follows
 * the name, arguments already typed, is kept), and where the caret goes: after that space.
 */
export function applySlashChoice(text: string, item: SlashItem): { text: string; caret: number } {
  const end = text.search(/\s/);
  const rest = end === -1 ? '' : text.slice(end).replace(/^[ \t]+/, '');
  const head = `/${item.command} `;
  return { text: head + rest, caret: head.length };
}

/** The highlighted item's index after a key: arrows move and wrap around, Page keys jump by five. */
export function movedIndex(index: number, count: number, key: string): number {
  if (count === 0) return 0;
  switch (key) {
    case 'ArrowDown':
      return (index + 1) % count;
    case 'ArrowUp':
      return (index - 1 + count) % count;
    case 'PageDown':
      return Math.min(count - 1, index + 5);
    case 'PageUp':
      return Math.max(0, index - 5);
    default:
      return index;
  }
}
