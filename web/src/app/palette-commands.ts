import type { ModelSummary } from '../../../shared/protocol';
import type { SessionListItem } from '../../../shared/rest-shapes';
import type { TreeNode } from '../../../shared/session-entries';
import type { ThemeChoice } from '../theme/theme';

/*
 * What the command palette offers for what was typed: actions (new session, themes), sessions to
 * switch to, models to use, and messages of the open session to jump to. Every word typed must
 * appear in an item's text (any case); each group shows its first few, messages only once
 * something is typed. Pure, so the page and its tests read the same list.
 */

export type PaletteAction =
  | { kind: 'new_session' }
  | { kind: 'settings' }
  | { kind: 'theme'; choice: ThemeChoice }
  | { kind: 'open_session'; sessionId: string }
  | { kind: 'model'; provider: string; modelId: string }
  | { kind: 'jump'; entryId: string };

export interface PaletteItem {
  id: string;
  label: string;
  detail?: string;
  action: PaletteAction;
}

export interface PaletteSection {
  id: 'actions' | 'sessions' | 'models' | 'messages';
  title: string;
  items: PaletteItem[];
}

export interface PaletteInput {
  query: string;
  canCreate: boolean;
  canWrite: boolean;
  /** An admin: the settings (keys, models in use) are offered. */
  canManage: boolean;
  theme: ThemeChoice;
  /** Every workspace's sessions, newest first. */
  sessions: SessionListItem[];
  openSessionId: string | null;
  models: readonly ModelSummary[];
  currentModel: { provider: string; modelId: string } | null;
  nodes: readonly TreeNode[];
}

/** How many items each group shows. */
export const PER_SECTION = 8;

const THEMES: Record<ThemeChoice, string> = {
  system: 'Theme: follow the system',
  light: 'Theme: light',
  dark: 'Theme: dark',
};

/** Roles a person jumps to by their words. */
const JUMP_ROLES = new Set(['user', 'assistant', 'custom', 'bashExecution']);

function matcher(query: string): (text: string) => boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return (text) => {
    const lower = text.toLowerCase();
    return words.every((word) => lower.includes(word));
  };
}

function take(items: Iterable<PaletteItem>, matches: (text: string) => boolean): PaletteItem[] {
  const taken: PaletteItem[] = [];
  for (const item of items) {
    if (!matches(`${item.label} ${item.detail ?? ''}`)) continue;
    taken.push(item);
    if (taken.length === PER_SECTION) break;
  }
  return taken;
}

export function paletteSections(input: PaletteInput): PaletteSection[] {
  const matches = matcher(input.query);
  const actions: PaletteItem[] = [];
  if (input.canCreate)
    actions.push({ id: 'new-session', label: 'New session', action: { kind: 'new_session' } });
  if (input.canManage)
    actions.push({
      id: 'settings',
      label: 'Settings: provider keys and models in use',
      action: { kind: 'settings' },
    });
  for (const choice of ['system', 'light', 'dark'] as const)
    if (choice !== input.theme)
      actions.push({
        id: `theme-${choice}`,
        label: THEMES[choice],
        action: { kind: 'theme', choice },
      });

  const sessions = function* (): Generator<PaletteItem> {
    for (const session of input.sessions) {
      if (session.id === input.openSessionId) continue;
      yield {
        id: `session-${session.id}`,
        label: session.name ?? (session.firstMessage || 'Empty session'),
        ...(session.name && session.firstMessage ? { detail: session.firstMessage } : {}),
        action: { kind: 'open_session', sessionId: session.id },
      };
    }
  };

  const models = function* (): Generator<PaletteItem> {
    if (!input.canWrite || !input.openSessionId) return;
    for (const model of input.models) {
      const current =
        input.currentModel?.provider === model.provider && input.currentModel.modelId === model.id;
      if (current) continue;
      yield {
        id: `model-${model.provider}/${model.id}`,
        label: `Use ${model.name}`,
        detail: `${model.provider}/${model.id}${model.noKey ? ' · no key' : ''}`,
        action: { kind: 'model', provider: model.provider, modelId: model.id },
      };
    }
  };

  const messages = function* (): Generator<PaletteItem> {
    if (!input.query.trim()) return;
    // Newest first: the latest mention is the likeliest wanted.
    for (let i = input.nodes.length - 1; i >= 0; i--) {
      const node = input.nodes[i]!;
      if (!node.role || !JUMP_ROLES.has(node.role) || !node.preview) continue;
      yield {
        id: `jump-${node.id}`,
        label: node.label ? `${node.label}: ${node.preview}` : node.preview,
        detail: node.role === 'user' ? 'prompt' : node.role === 'assistant' ? 'answer' : 'note',
        action: { kind: 'jump', entryId: node.id },
      };
    }
  };

  const sections: PaletteSection[] = [
    { id: 'actions', title: 'Actions', items: take(actions, matches) },
    { id: 'sessions', title: 'Sessions', items: take(sessions(), matches) },
    { id: 'models', title: 'Models', items: take(models(), matches) },
    { id: 'messages', title: 'Messages in this session', items: take(messages(), matches) },
  ];
  return sections.filter((section) => section.items.length > 0);
}
