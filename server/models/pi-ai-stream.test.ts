import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { ModelCatalog, type ModelInfo } from './model-catalog.js';
import type { ModelRequest, ModelStreamEvent, ModelStreamOutcome } from './model-stream.js';
import { ABORTED_MESSAGE, piAiStream } from './pi-ai-stream.js';
import { drainStream } from './test-support/drain-stream.js';

/*
 * The stream function over pi-ai, against the demo model on loopback (a real HTTP server that
 * speaks Chat Completions): events, the final message as pi records it, Retry-After, abort.
 */

let demo: RunningDemoModel;
let model: ModelInfo;
let apiKey: string | undefined;
const bodies: Record<string, unknown>[] = [];

beforeAll(async () => {
  demo = await startDemoModel({
    port: 0,
    onRequest: (route, body) => {
      if (route === '/chat/completions') bodies.push(body as Record<string, unknown>);
    },
  });
  const catalog = ModelCatalog.load({
    dataDir: '/nonexistent',
    config: { models: [] },
    demoBaseUrl: demo.baseUrl,
    env: {},
  });
  model = catalog.lookup('arbor-demo')!;
  apiKey = catalog.apiKeyFor(model);
});
afterAll(() => demo.close());

async function run(
  text: string,
  overrides: Partial<ModelRequest> = {},
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<{ events: ModelStreamEvent[]; outcome: ModelStreamOutcome }> {
  const stream = piAiStream({
    model,
    auth: { apiKey },
    systemPrompt: 'You are a test.',
    messages: [{ role: 'user', content: text, timestamp: 1 }],
    tools: [{ name: 'ls', description: 'list', parameters: { type: 'object', properties: {} } }],
    thinkingLevel: 'off',
    signal: new AbortController().signal,
    ...overrides,
  });
  return drainStream(stream, onEvent);
}

describe('the model stream over pi-ai', () => {
  it('streams a text answer and returns it as pi records it, with usage and cost', async () => {
    const { events, outcome } = await run('hello there');
    expect(events[0]).toEqual({ type: 'start' });
    const text = events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e.type === 'text_delta' ? e.delta : ''))
      .join('');
    expect(text).toBe('You said: "hello there"');
    expect(outcome.message).toMatchObject({
      role: 'assistant',
      api: 'openai-completions',
      provider: 'arbor',
      model: 'arbor-demo',
      stopReason: 'stop',
      content: [{ type: 'text', text: 'You said: "hello there"' }],
    });
    expect(outcome.message.usage.input).toBeGreaterThan(0);
    expect(outcome.message.usage.totalTokens).toBeGreaterThan(outcome.message.usage.input);
  });

  it('streams a tool call with its id, name and parsed arguments', async () => {
    const { events, outcome } = await run('look\n/tool ls {"path":"src"}');
    const start = events.find((e) => e.type === 'toolcall_start');
    expect(start).toMatchObject({ name: 'ls' });
    const end = events.find((e) => e.type === 'toolcall_end');
    expect(end).toMatchObject({ toolCall: { name: 'ls', arguments: { path: 'src' } } });
    expect(start?.type === 'toolcall_start' && start.id).toBe(
      end?.type === 'toolcall_end' && end.toolCall.id,
    );
    expect(outcome.message.stopReason).toBe('toolUse');
  });

  it("hands a 429's Retry-After to the agent loop, which retries (pi-ai's retries are off)", async () => {
    const sent = bodies.length;
    const { outcome } = await run('busy\n/fail 429 2500');
    expect(bodies.length - sent).toBe(1);
    expect(outcome.message.stopReason).toBe('error');
    expect(outcome.message.errorMessage).toContain('429');
    expect(outcome.retryAfterMs).toBe(2500);
  });

  it('stops at once on abort, as an aborted message', async () => {
    const controller = new AbortController();
    const { outcome } = await run(
      `slowly ${'word '.repeat(40)}\n/slow 200`,
      { signal: controller.signal },
      (event) => {
        if (event.type === 'text_delta') controller.abort();
      },
    );
    expect(outcome.message.stopReason).toBe('aborted');
    expect(outcome.message.errorMessage).toBe(ABORTED_MESSAGE);
  });

  it('asks a reasoning model for the thinking level, through pi-ai', async () => {
    const sent = bodies.length;
    await run('think', { model: { ...model, reasoning: true }, thinkingLevel: 'high' });
    expect(bodies[sent]).toMatchObject({ reasoning_effort: 'high' });
    await run('do not', { model: { ...model, reasoning: true }, thinkingLevel: 'off' });
    expect(bodies[sent + 1]?.reasoning_effort).toBeUndefined();
  });

  it('fails as data, naming the model, when there is no key', async () => {
    const { events, outcome } = await run('hi', { auth: {} });
    expect(events).toEqual([]);
    expect(outcome.message.stopReason).toBe('error');
    expect(outcome.message.errorMessage).toMatch(/^No API key for model arbor\/arbor-demo/);
  });
});
