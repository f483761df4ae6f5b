import { describe, expect, it } from 'vitest';
import type { SessionListItem } from '../../../shared/rest-shapes';
import type { TreeNode } from '../../../shared/session-entries';
import { PER_SECTION, paletteSections, type PaletteInput } from './palette-commands';

const session = (id: string, firstMessage: string, name?: string): SessionListItem => ({
  id,
  workspaceId: 'w',
  ...(name ? { name } : {}),
  firstMessage,
  created: '',
  modified: '',
  messageCount: 1,
  owner: null,
  may: { rename: true, delete: true },
});
const node = (id: string, role: string, preview: string): TreeNode => ({
  id,
  parentId: null,
  type: 'message',
  role,
  preview,
  timestamp: '',
});
const model = (provider: string, id: string, name: string) => ({
  provider,
  id,
  name,
  contextWindow: 1,
  maxOutputTokens: 1,
  reasoning: false,
});

const base: PaletteInput = {
  query: '',
  canCreate: true,
  canWrite: true,
  canManage: false,
  theme: 'system',
  sessions: [session('open', 'this one'), session('s1', 'fix the parser', 'Parser work')],
  openSessionId: 'open',
  models: [model('arbor', 'arbor-demo', 'Arbor demo model'), model('openai', 'gpt-4o', 'GPT-4o')],
  currentModel: { provider: 'arbor', modelId: 'arbor-demo' },
  nodes: [node('a', 'user', 'where is the parser'), node('b', 'assistant', 'the parser is in src')],
};

const labels = (input: PaletteInput) =>
  paletteSections(input).map((s) => [s.id, s.items.map((i) => i.label)]);

describe('the command palette’s items', () => {
  it('offers actions, other sessions and other models; messages only once something is typed', () => {
    expect(labels(base)).toEqual([
      ['actions', ['New session', 'Theme: light', 'Theme: dark']],
      ['sessions', ['Parser work']],
      ['models', ['Use GPT-4o']],
    ]);
  });

  it('keeps what holds every word typed, in any case, newest messages first', () => {
    expect(labels({ ...base, query: 'PARSER' })).toEqual([
      ['sessions', ['Parser work']],
      ['messages', ['the parser is in src', 'where is the parser']],
    ]);
    expect(labels({ ...base, query: 'parser prompt' })).toEqual([
      ['messages', ['where is the parser']],
    ]);
    expect(labels({ ...base, query: 'nothing like this' })).toEqual([]);
  });

  it('gives a viewer no new session and no model to change to', () => {
    const viewer = { ...base, canCreate: false, canWrite: false };
    expect(labels(viewer).map(([id]) => id)).toEqual(['actions', 'sessions']);
    expect(labels(viewer)[0]).toEqual(['actions', ['Theme: light', 'Theme: dark']]);
  });

  it('offers an admin the settings', () => {
    expect(labels({ ...base, canManage: true, query: 'keys' })).toEqual([
      ['actions', ['Settings: provider keys and models in use']],
    ]);
  });

  it(`shows at most ${PER_SECTION} of a group`, () => {
    const many = Array.from({ length: 50 }, (_, i) => node(`n${i}`, 'user', `note ${i}`));
    const [messages] = paletteSections({ ...base, query: 'note', nodes: many });
    expect(messages?.items).toHaveLength(PER_SECTION);
    expect(messages?.items[0]?.label).toBe('note 49');
  });
});
