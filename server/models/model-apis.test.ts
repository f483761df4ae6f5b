import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, ToolResultMessage } from '../../shared/messages.js';
import type { ModelInfo } from './model-info.js';
import type { ModelRequest, ModelStreamEvent, ModelStreamOutcome } from './model-stream.js';
import { piAiStream } from './pi-ai-stream.js';
import { drainStream } from './test-support/drain-stream.js';
import {
  RECORDED_APIS,
  startRecordingModel,
  type RecordedApi,
  type RecordingModel,
} from './test-support/recording-model.js';

/*
 * Every model API Arbor offers, through pi-ai, against a server that answers each in its own
 * streaming wire format: a text with usage and cost, a tool call round trip, thinking replayed
 * with its signature, a 429's Retry-After, and an abort mid-stream.
 */

let server: RecordingModel;
beforeAll(async () => {
  server = await startRecordingModel();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.script.length = 0;
});

function modelFor(api: RecordedApi): ModelInfo {
  return {
    id: `lab-${api}`,
    name: `Lab ${api}`,
    provider: 'lab',
    api,
    baseUrl: server.baseUrl(api),
    contextWindow: 100_000,
    maxOutputTokens: 4096,
    reasoning: true,
    input: ['text', 'image'],
    cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 },
  };
}

const TOOLS = [
  {
    name: 'read',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

async function run(
  api: RecordedApi,
  messages: ModelRequest['messages'],
  overrides: Partial<ModelRequest> = {},
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<{ events: ModelStreamEvent[]; outcome: ModelStreamOutcome }> {
  const stream = piAiStream({
    model: modelFor(api),
    auth: { apiKey: 'lab-key' },
    systemPrompt: 'You are a test.',
    messages,
    tools: TOOLS,
    thinkingLevel: 'high',
    signal: new AbortController().signal,
    ...overrides,
  });
  return drainStream(stream, onEvent);
}

const ask = (text: string) => ({ role: 'user' as const, content: text, timestamp: 1 });

function keyOf(api: RecordedApi, headers: Record<string, unknown>): unknown {
  if (api === 'anthropic-messages') return headers['x-api-key'];
  if (api === 'google-generative-ai') return headers['x-goog-api-key'];
  return headers.authorization;
}

describe.each(RECORDED_APIS)('the %s API through pi-ai', (api) => {
  it('streams a text answer, with the key where the API wants it, and usage and cost as pi counts them', async () => {
    server.script.push({ text: 'Hello from the lab.', usage: { input: 1000, output: 200 } });
    const { events, outcome } = await run(api, [ask('hi')]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.api).toBe(api);
    expect(String(keyOf(api, server.requests[0]!.headers))).toContain('lab-key');
    expect(events[0]).toEqual({ type: 'start' });
    expect(outcome.message).toMatchObject({
      role: 'assistant',
      api,
      provider: 'lab',
      model: `lab-${api}`,
      stopReason: 'stop',
    });
    const text = outcome.message.content.find((block) => block.type === 'text');
    expect(text).toMatchObject({ text: 'Hello from the lab.' });
    expect(outcome.message.usage).toMatchObject({ input: 1000, output: 200 });
    // $3 and $15 per million tokens.
    expect(outcome.message.usage.cost?.total).toBeCloseTo(0.003 + 0.003, 6);
  });

  it('sends the headers pi’s models.json gives the model', async () => {
    server.script.push({ text: 'ok' });
    await run(api, [ask('hi')], { model: { ...modelFor(api), headers: { 'x-team': 'blue' } } });
    expect(server.requests[0]!.headers['x-team']).toBe('blue');
  });

  it('makes a tool call, and sends its result back in the API’s own form', async () => {
    server.script.push({ toolCalls: [{ id: 'call_7', name: 'read', args: { path: 'a.txt' } }] });
    const first = await run(api, [ask('read a.txt')]);
    expect(first.outcome.message.stopReason).toBe('toolUse');
    const call = first.outcome.message.content.find((block) => block.type === 'toolCall');
    expect(call).toMatchObject({ name: 'read', arguments: { path: 'a.txt' } });
    expect(first.events.some((e) => e.type === 'toolcall_end')).toBe(true);
    const result: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: call?.type === 'toolCall' ? call.id : '',
      toolName: 'read',
      content: [{ type: 'text', text: 'alpha beta gamma' }],
      isError: false,
      timestamp: 3,
    };
    server.script.push({ text: 'It says alpha.' });
    const second = await run(api, [ask('read a.txt'), first.outcome.message, result]);
    expect(second.outcome.message.stopReason).toBe('stop');
    const sent = JSON.stringify(server.requests[1]!.body);
    expect(sent).toContain('alpha beta gamma');
    expect(sent).toContain('read');
  });

  it('sends an image to a model that sees images, in the API’s own form', async () => {
    server.script.push({ text: 'A red dot.' });
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    await run(api, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image', data: png, mimeType: 'image/png' },
        ],
        timestamp: 1,
      },
    ]);
    const sent = JSON.stringify(server.requests[0]!.body);
    expect(sent).toContain(png);
    expect(sent).toContain('image/png');
  });

  it("hands a 429's Retry-After to the agent loop", async () => {
    server.script.push({ status: 429, retryAfter: '3' });
    const { outcome } = await run(api, [ask('busy?')]);
    expect(server.requests).toHaveLength(1);
    expect(outcome.message.stopReason).toBe('error');
    expect(outcome.retryAfterMs).toBe(3000);
  });

  it('stops mid-stream on abort, as an aborted message', async () => {
    server.script.push({ hold: 'Partial ' });
    const controller = new AbortController();
    const { outcome } = await run(api, [ask('go')], { signal: controller.signal }, (event) => {
      if (event.type === 'text_delta') controller.abort();
    });
    expect(outcome.message.stopReason).toBe('aborted');
  });
});

// Chat Completions and Mistral carry no signature for their reasoning; the other three replay it.
describe.each(
  RECORDED_APIS.filter((api) => api !== 'openai-completions' && api !== 'mistral-conversations'),
)('thinking on the %s API', (api) => {
  it('replays thinking with its signature on the next request', async () => {
    // Base64, as Google's signatures are (pi-ai drops one that is not).
    server.script.push({
      thinking: { text: 'Let me think.', signature: 'c2lnLTNmOWE=' },
      text: 'Done thinking.',
    });
    const first = await run(api, [ask('think')]);
    const thinking = first.outcome.message.content.find((block) => block.type === 'thinking');
    expect(thinking).toMatchObject({ thinking: 'Let me think.' });
    expect(JSON.stringify(thinking)).toContain('c2lnLTNmOWE=');
    server.script.push({ text: 'Again.' });
    await run(api, [ask('think'), first.outcome.message as AssistantMessage, ask('and again')]);
    expect(JSON.stringify(server.requests[1]!.body)).toContain('c2lnLTNmOWE=');
  });
});

describe('thinking on the mistral-conversations API', () => {
  it('reads thinking from its content chunks and replays it as Mistral wants it', async () => {
    const api = 'mistral-conversations';
    server.script.push({ thinking: { text: 'Let me think.', signature: '' }, text: 'Done.' });
    const first = await run(api, [ask('think')]);
    const thinking = first.outcome.message.content.find((block) => block.type === 'thinking');
    expect(thinking).toMatchObject({ thinking: 'Let me think.' });
    server.script.push({ text: 'Again.' });
    await run(api, [ask('think'), first.outcome.message as AssistantMessage, ask('and again')]);
    const replayed = JSON.stringify(server.requests[1]!.body);
    expect(replayed).toContain('"type":"thinking"');
    expect(replayed).toContain('Let me think.');
  });
});
