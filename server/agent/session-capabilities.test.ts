import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMessage, ImageContent } from '../../shared/messages.js';
import { DEMO_MODEL_ID, DEMO_PROVIDER } from '../demo-model/demo-model-handler.js';
import { ModelCatalog } from '../models/model-catalog.js';
import { piAiStream } from '../models/pi-ai-stream.js';
import { SessionStore } from '../store/session-store.js';
import type { StreamFn } from '../models/model-stream.js';
import { startHarness, type Harness } from '../test-support/agent-harness.js';
import { startRecordingProxy } from '../app/test-support/recording-proxy.js';

/*
 * What a session asks of its model follows the model's catalog entry: the thinking level is
 * clamped to the levels it supports, and a model that cannot see images is sent notes instead.
 * The models here are the demo model under other names (models.json entries pointing at it),
 * reached through a proxy that records every request body on its way.
 */

let h: Harness;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
const bodies: Record<string, unknown>[] = [];

beforeAll(async () => {
  h = await startHarness();
  proxy = await startRecordingProxy(h.demo.baseUrl, bodies);
});

afterAll(async () => {
  await proxy.close();
  await h.close();
});

/** A model of the test catalog's provider. */
const lab = (modelId: string) => ({ provider: 'lab', modelId });

function catalog(): ModelCatalog {
  const entry = (id: string, extra: Record<string, unknown>) => ({
    id,
    provider: 'lab',
    baseUrl: proxy.url,
    contextWindow: 100_000,
    maxOutputTokens: 4096,
    apiKey: 'local',
    ...extra,
  });
  return ModelCatalog.load({
    dataDir: h.root,
    demoBaseUrl: h.demo.baseUrl,
    env: {},
    config: {
      models: [
        entry('deep-thinker', { reasoning: true, thinkingLevelMap: { xhigh: 'xhigh' } }),
        entry('thinker', { reasoning: true }),
        entry('always-thinks', { reasoning: true, thinkingLevelMap: { off: null } }),
        entry('blind', { input: ['text'] }),
        entry('sees', { input: ['text', 'image'] }),
      ],
    },
  });
}

function thinkingEntries(store: SessionStore): string[] {
  return store
    .getBranch()
    .flatMap((entry) => (entry.type === 'thinking_level_change' ? [entry.thinkingLevel] : []));
}

describe('thinking level per model', () => {
  it('a model that does not reason stays off, whatever is asked, and nothing is recorded', async () => {
    const { session, events } = await h.open({ catalog: catalog() });
    session.setThinkingLevel('high');
    expect(session.getState().thinkingLevel).toBe('off');
    expect(events.some((e) => e.type === 'thinking_level_changed')).toBe(false);
    expect(thinkingEntries(session.store)).toEqual(['off']);
  });

  it('the level asked for is re-clamped on every model change and the state shows the effective one', async () => {
    const { session, events } = await h.open({ catalog: catalog() });
    session.setThinkingLevel('xhigh');
    session.setModel(lab('deep-thinker'));
    expect(session.getState().thinkingLevel).toBe('xhigh');
    session.setModel(lab('thinker'));
    expect(session.getState().thinkingLevel).toBe('high');
    session.setModel({ provider: DEMO_PROVIDER, modelId: DEMO_MODEL_ID });
    expect(session.getState().thinkingLevel).toBe('off');
    session.setModel(lab('deep-thinker'));
    expect(session.getState().thinkingLevel).toBe('xhigh');
    const changes = events.flatMap((e) =>
      e.type === 'model_changed'
        ? [`model ${e.modelId}`]
        : e.type === 'thinking_level_changed'
          ? [`level ${e.level}`]
          : [],
    );
    expect(changes).toEqual([
      'model deep-thinker',
      'level xhigh',
      'model thinker',
      'level high',
      `model ${DEMO_MODEL_ID}`,
      'level off',
      'model deep-thinker',
      'level xhigh',
    ]);
    expect(thinkingEntries(session.store)).toEqual(['off', 'xhigh', 'high', 'off', 'xhigh']);
    // The file, reopened by pi's rules, gives the same level.
    expect(session.store.buildSessionContext().thinkingLevel).toBe('xhigh');
  });

  it('the model is called with the effective level and sent it as reasoning_effort', async () => {
    const levels: string[] = [];
    const streamFn: StreamFn = (request) => {
      levels.push(request.thinkingLevel);
      return piAiStream(request);
    };
    const { session } = await h.open({ catalog: catalog(), model: lab('thinker'), streamFn });
    session.setThinkingLevel('xhigh');
    bodies.length = 0;
    await session.prompt('think hard');
    expect(levels).toEqual(['high']);
    expect(bodies.map((body) => body.reasoning_effort)).toEqual(['high']);
  });

  it('a new session on a model that always reasons starts at its lowest level', async () => {
    const { session } = await h.open({ catalog: catalog(), model: lab('always-thinks') });
    expect(session.getState().thinkingLevel).toBe('minimal');
    expect(thinkingEntries(session.store)).toEqual(['minimal']);
  });

  it('a session reopened on a model that cannot honour its level shows the clamped one and writes nothing', async () => {
    const first = await h.open({ catalog: catalog(), model: lab('thinker') });
    first.session.setThinkingLevel('high');
    const file = first.session.store.file!;
    await first.session.dispose();
    const before = fs.readFileSync(file, 'utf8');
    const { session } = await h.open({
      catalog: catalog(),
      model: { provider: DEMO_PROVIDER, modelId: DEMO_MODEL_ID },
      store: SessionStore.open(file),
    });
    expect(session.getState().thinkingLevel).toBe('off');
    // Opening on another model records that model, and no thinking level.
    const added = fs.readFileSync(file, 'utf8').slice(before.length);
    expect(added).not.toContain('thinking_level_change');
    session.setModel(lab('thinker'));
    expect(session.getState().thinkingLevel).toBe('high');
  });
});

const PNG: ImageContent = {
  type: 'image',
  mimeType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
};

function imageParts(body: Record<string, unknown>): number {
  return (JSON.stringify(body.messages).match(/"type":"image_url"/g) ?? []).length;
}

/** pi-ai's notes in place of images for a model that cannot see them. */
const USER_IMAGE_OMITTED = '(image omitted: model does not support images)';
const TOOL_IMAGE_OMITTED = '(tool image omitted: model does not support images)';

describe('images for a model that cannot see them', () => {
  it('are sent as notes, while the session file keeps them', async () => {
    fs.writeFileSync(path.join(h.workspace, 'pic.png'), Buffer.from(PNG.data, 'base64'));
    const { session } = await h.open({ catalog: catalog(), model: lab('blind') });
    bodies.length = 0;
    await session.prompt('look at this\n/tool read {"path":"pic.png"}', { images: [PNG] });
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(imageParts(body)).toBe(0);
    const last = bodies[1]!.messages as { role: string; content: unknown }[];
    expect(last[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look at this\n/tool read {"path":"pic.png"}' },
        { type: 'text', text: USER_IMAGE_OMITTED },
      ],
    });
    expect(last.at(-1)).toMatchObject({
      role: 'tool',
      content: `Read image file [image/png]\n${TOOL_IMAGE_OMITTED}`,
    });

    // The file keeps both images, byte for byte.
    const stored: AgentMessage[] = session.store.buildSessionContext().messages;
    const images = stored.flatMap((message) =>
      (message.role === 'user' || message.role === 'toolResult') && Array.isArray(message.content)
        ? message.content.filter((block) => block.type === 'image')
        : [],
    );
    expect(images).toEqual([PNG, PNG]);

    // The same history sent to a model that sees images carries both.
    session.setModel(lab('sees'));
    bodies.length = 0;
    await session.prompt('and now?');
    expect(imageParts(bodies[0]!)).toBe(2);
  });
});
