import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelCatalog } from '../models/model-catalog.js';
import {
  RECORDED_APIS,
  startRecordingModel,
  type RecordingModel,
} from '../models/test-support/recording-model.js';
import { expectSameAsPi16 } from '../store/test-support/pi16-compare.js';
import { startHarness, type Harness } from '../test-support/agent-harness.js';

/*
 * A session on each model API Arbor offers, as a pi user's models.json names it: a prompt with a
 * tool call round trip, answered by a server that speaks that API, saved as pi saves it (pi 1.6
 * reads the file to the same context at every entry).
 */

let h: Harness;
let model: RecordingModel;
let catalog: ModelCatalog;

beforeAll(async () => {
  h = await startHarness();
  model = await startRecordingModel();
  const dataDir = path.join(h.root, 'pi-agent');
  fs.mkdirSync(dataDir);
  const providers = Object.fromEntries(
    RECORDED_APIS.map((api) => [
      `lab-${api}`,
      {
        baseUrl: model.baseUrl(api),
        api,
        apiKey: 'lab-key',
        models: [
          {
            id: 'lab-model',
            reasoning: true,
            cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    ]),
  );
  fs.writeFileSync(path.join(dataDir, 'models.json'), JSON.stringify({ providers }));
  catalog = ModelCatalog.load({ dataDir, demoBaseUrl: h.demo.baseUrl, env: {} });
});
afterAll(async () => {
  await model.close();
  await h.close();
});

describe.each(RECORDED_APIS)('a session on the %s API', (api) => {
  it('runs a tool round trip, saves it as pi does, and pi 1.6 reads it to the same context', async () => {
    fs.writeFileSync(path.join(h.workspace, 'notes.txt'), 'alpha beta gamma\n');
    const provider = `lab-${api}`;
    // The id is the same under every provider: the pair names the model.
    expect(catalog.get(provider, 'lab-model')?.api ?? 'openai-completions').toBe(api);
    const { session } = await h.open({ catalog, model: { provider, modelId: 'lab-model' } });
    session.setThinkingLevel('medium');
    const sent = model.requests.length;
    model.script.push(
      {
        thinking: { text: 'I should read it.', signature: 'c2lnbmVkLWJ5LWxhYg==' },
        toolCalls: [{ id: 'call_1', name: 'read', args: { path: 'notes.txt' } }],
      },
      { text: 'The notes say alpha.', usage: { input: 50, output: 7 } },
    );
    await session.prompt('What do the notes say?');
    expect(model.requests.length - sent).toBe(2);
    expect(model.requests.slice(sent).every((request) => request.api === api)).toBe(true);
    // The second request carries the tool's output, in the API's own form.
    expect(JSON.stringify(model.requests[sent + 1]!.body)).toContain('alpha beta gamma');

    const messages = session.store.buildSessionContext().messages;
    const assistants = messages.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(2);
    for (const message of assistants)
      expect(message).toMatchObject({ api, provider, model: 'lab-model' });
    expect(assistants[1]).toMatchObject({
      stopReason: 'stop',
      content: [{ type: 'text', text: 'The notes say alpha.' }],
      usage: { input: 50, output: 7 },
    });
    const result = messages.find((m) => m.role === 'toolResult');
    expect(JSON.stringify(result)).toContain('alpha beta gamma');
    const file = session.store.file!;
    await session.dispose();
    await expectSameAsPi16(file);
  });
});
