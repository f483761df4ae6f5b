import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import OpenAI from 'openai';
import { Stream } from 'openai/core/streaming';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpFetch, httpFetch } from './http-fetch.js';

/** The chunks of a streamed response, read as the `openai` client pi-ai drives reads them. */
const chatCompletionChunks = (response: Response) =>
  Stream.fromSSEResponse<unknown>(response, new AbortController());

const chunk = (content: string) =>
  JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content } }] });

/** A model endpoint whose behaviour each test picks by the request's `model`. */
function modelServer() {
  /** The socket of every request, in order. */
  const sockets: unknown[] = [];
  /** When each endless compressed stream saw its client go. */
  const closedAt: number[] = [];
  const server = http.createServer((req, res) => {
    sockets.push(req.socket);
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as { model?: string };
      switch (body.model) {
        case 'stream': {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const word of ['a', 'b', 'c']) res.write(`data: ${chunk(word)}\n\n`);
          res.end('data: [DONE]\n\n');
          return;
        }
        case 'drop': {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`data: ${chunk('a')}\n\n`, () => setTimeout(() => res.socket?.destroy(), 20));
          return;
        }
        case 'stall': {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`data: ${chunk('a')}\n\n`);
          return;
        }
        case 'weird': {
          res.writeHead(999, { 'content-type': 'text/plain' });
          res.end('odd');
          return;
        }
        case 'gzip-stream': {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
          const gzip = zlib.createGzip();
          gzip.pipe(res);
          let n = 0;
          const timer = setInterval(() => {
            gzip.write(`data: ${chunk(`g${n++}`)}\n\n`);
            gzip.flush();
          }, 10);
          res.on('close', () => {
            clearInterval(timer);
            closedAt.push(performance.now());
          });
          return;
        }
        case 'limited': {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
          res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }));
          return;
        }
        case 'gzip': {
          const reply = {
            id: 'x',
            object: 'chat.completion',
            created: 0,
            model: 'gzip',
            choices: [{ index: 0, message: { role: 'assistant', content: 'packed' } }],
          };
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          res.end(zlib.gzipSync(JSON.stringify(reply)));
          return;
        }
        default:
          // never answers: for aborts before the headers
          return;
      }
    });
  });
  return { server, sockets, closedAt };
}

describe('httpFetch', () => {
  const { server, sockets, closedAt } = modelServer();
  let baseURL: string;
  let client: OpenAI;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    client = new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0, fetch: httpFetch });
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const streamed = (model: string, signal?: AbortSignal) =>
    client.chat.completions.create({ model, messages: [], stream: true }, { signal }).asResponse();

  it("streams the chunks Node's own fetch streams", async () => {
    const ours: unknown[] = [];
    for await (const c of chatCompletionChunks(await streamed('stream'))) ours.push(c);
    const global = new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0 });
    const theirs: unknown[] = [];
    const response = await global.chat.completions
      .create({ model: 'stream', messages: [], stream: true })
      .asResponse();
    for await (const c of chatCompletionChunks(response)) theirs.push(c);
    expect(ours).toHaveLength(3);
    expect(ours).toEqual(theirs);
  });

  it('reuses one connection for requests one after another', async () => {
    sockets.length = 0;
    for (let i = 0; i < 3; i++) {
      // The reader stops at [DONE], before the response's end: the rest is read and the socket
      // goes back to the pool a moment later (as between two turns of an agent).
      for await (const _ of chatCompletionChunks(await streamed('stream')));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(sockets).toHaveLength(3);
    expect(new Set(sockets).size).toBe(1);
  });

  it("turns an error status into the client's APIError with the body and headers", async () => {
    const failure = await streamed('limited').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('slow down');
    expect((failure as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('7');
  });

  it('decodes a gzip body', async () => {
    const reply = await client.chat.completions.create({ model: 'gzip', messages: [] });
    expect(reply.choices[0]?.message.content).toBe('packed');
  });

  it('reports a status outside 200–599 as an error of the request, and carries on', async () => {
    const failure = await streamed('weird').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(((failure as Error).cause as Error).message).toContain('HTTP status 999');
    const again = chatCompletionChunks(await streamed('stream'))[Symbol.asyncIterator]();
    expect((await again.next()).done).toBe(false);
  });

  it('lets go of the model at once when a compressed stream is left early', async () => {
    for await (const _ of chatCompletionChunks(await streamed('gzip-stream'))) break;
    const left = performance.now();
    while (closedAt.length === 0 && performance.now() - left < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closedAt).toHaveLength(1);
    expect((closedAt[0] as number) - left).toBeLessThan(1_000);
  });

  it('says the connection was lost when the model drops it mid-stream', async () => {
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const c of chatCompletionChunks(await streamed('drop'))) seen.push(c);
    })().catch((error: unknown) => error);
    expect(seen).toHaveLength(1);
    expect((failure as Error).message).toMatch(/^Connection lost while the model was streaming/);
  });

  it('stops waiting for headers when the request is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(streamed('silent', controller.signal)).rejects.toBeInstanceOf(
      OpenAI.APIUserAbortError,
    );
  });

  it('names the refused address when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = new OpenAI({
      baseURL: `http://127.0.0.1:${port}/v1`,
      apiKey: 'k',
      maxRetries: 0,
      fetch: httpFetch,
    });
    const failure = await nowhere.models.list().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(((failure as Error).cause as Error).message).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('gives up on a model that sends nothing for the idle timeout, before or within the body', async () => {
    const impatient = new OpenAI({
      baseURL,
      apiKey: 'k',
      maxRetries: 0,
      fetch: createHttpFetch(100),
    });
    const request = (model: string) =>
      impatient.chat.completions.create({ model, messages: [], stream: true }).asResponse();
    await expect(request('silent')).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const c of chatCompletionChunks(await request('stall'))) seen.push(c);
    })().catch((error: unknown) => error);
    expect(seen).toHaveLength(1);
    expect((failure as Error).message).toBe(
      "The model's connection timed out: nothing came for 0.1 s",
    );
  });

  it('leaves what it cannot send to the global fetch', async () => {
    const response = await httpFetch('data:text/plain,hello');
    expect(await response.text()).toBe('hello');
  });
});
