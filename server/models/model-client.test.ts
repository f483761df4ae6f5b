import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModel, describeModelError } from './model-client.js';
import { chatCompletionChunks } from './sse-chunks.js';

const chunk = (content: string) =>
  JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content } }] });

/** A model endpoint whose behaviour each test picks by the request's `model`. */
function modelServer() {
  /** The socket and headers of every request, in order. */
  const requests: { socket: unknown; headers: http.IncomingHttpHeaders }[] = [];
  /** When each endless stream saw its client go. */
  const closedAt: number[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ socket: req.socket, headers: req.headers });
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
        case 'endless': {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          let n = 0;
          const timer = setInterval(() => res.write(`data: ${chunk(`w${n++}`)}\n\n`), 5);
          res.on('close', () => clearInterval(timer));
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
        case 'moved': {
          res.writeHead(307, { location: '/v1/chat/completions' });
          res.end();
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
          // never answers: for aborts and timeouts before the headers
          return;
      }
    });
  });
  return { server, requests, closedAt };
}

/** Every chunk's content as Arbor reads it, and what the stream failed with, if it did. */
async function drain(response: Response, stopAfter = Infinity, signal?: AbortSignal) {
  const seen: string[] = [];
  try {
    for await (const c of chatCompletionChunks(response, signal)) {
      seen.push(c.choices[0]?.delta.content ?? '');
      if (seen.length >= stopAfter) break;
    }
  } catch (error) {
    return { seen, error };
  }
  return { seen, error: undefined };
}

describe('model connections', () => {
  const { server, requests, closedAt } = modelServer();
  let baseURL: string;
  let client: OpenAI;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    client = connectModel(baseURL, 'k').client;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const streamed = (model: string, signal?: AbortSignal, on = client) =>
    on.chat.completions.create({ model, messages: [], stream: true }, { signal }).asResponse();

  it('streams the chunks, on one pooled connection, asking for no compression', async () => {
    requests.length = 0;
    for (let i = 0; i < 3; i++) {
      expect(await drain(await streamed('stream'))).toEqual({
        seen: ['a', 'b', 'c'],
        error: undefined,
      });
      // undici returns a connection to the pool a moment after its body ends; a request sent in
      // the same instant opens a second one.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.socket)).size).toBe(1);
    expect(requests[0]?.headers['accept-encoding']).toBe('identity');
  });

  it("turns an error status into the client's APIError with the body and headers", async () => {
    const failure = await streamed('limited').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('slow down');
    expect((failure as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('7');
  });

  it('reports a redirect as answered, and a status outside 200–599 by its number', async () => {
    const moved = await streamed('moved').catch((error: unknown) => error);
    expect((moved as InstanceType<typeof OpenAI.APIError>).status).toBe(307);
    const weird = await streamed('weird').catch((error: unknown) => error);
    expect(describeModelError(weird)).toContain('999');
    expect((await drain(await streamed('stream'))).seen).toHaveLength(3);
  });

  it('decodes a gzip body', async () => {
    const reply = await client.chat.completions.create({ model: 'gzip', messages: [] });
    expect(reply.choices[0]?.message.content).toBe('packed');
  });

  it('lets go of the model at once when a compressed stream is left early', async () => {
    await drain(await streamed('gzip-stream'), 1);
    const left = performance.now();
    while (closedAt.length === 0 && performance.now() - left < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closedAt).toHaveLength(1);
    expect((closedAt[0] as number) - left).toBeLessThan(1_000);
  });

  it('says the connection was lost when the model drops it mid-stream', async () => {
    const { seen, error } = await drain(await streamed('drop'));
    expect(seen).toHaveLength(1);
    expect(describeModelError(error)).toBe(
      'Connection lost while the model was streaming (other side closed)',
    );
  });

  it('stops waiting for headers when the request is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(streamed('silent', controller.signal)).rejects.toBeInstanceOf(
      OpenAI.APIUserAbortError,
    );
  });

  it('ends the chunks quietly when the request is aborted mid-stream', async () => {
    const controller = new AbortController();
    const response = await streamed('endless', controller.signal);
    const seen: unknown[] = [];
    for await (const c of chatCompletionChunks(response, controller.signal)) {
      seen.push(c);
      if (seen.length === 3) controller.abort();
    }
    expect(seen).toHaveLength(3);
  });

  it('names the refused address when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = connectModel(`http://127.0.0.1:${port}/v1`, 'k').client;
    const failure = await nowhere.models.list().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(describeModelError(failure)).toBe(
      `Connection error: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('gives up on a model that sends nothing for the idle timeout, before or within the body', async () => {
    const impatient = connectModel(baseURL, 'k', 100);
    await expect(streamed('silent', undefined, impatient.client)).rejects.toBeInstanceOf(
      OpenAI.APIConnectionTimeoutError,
    );
    const { seen, error } = await drain(await streamed('stall', undefined, impatient.client));
    expect(seen).toHaveLength(1);
    expect(describeModelError(error, impatient.idleTimeoutMs)).toBe(
      "The model's connection timed out: nothing came for 0.1 s",
    );
  });
});
