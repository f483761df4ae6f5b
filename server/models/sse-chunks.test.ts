import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { Stream } from 'openai/core/streaming';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from './http-fetch.js';
import { chatCompletionChunks } from './sse-chunks.js';

/** A Response whose body arrives in exactly these pieces. */
function responseOf(pieces: (string | Uint8Array)[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces)
        controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

async function ours(pieces: (string | Uint8Array)[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of chatCompletionChunks(responseOf(pieces))) out.push(chunk);
  return out;
}

/** What the `openai` client's own stream reader yields for the same bytes. */
async function theirs(pieces: (string | Uint8Array)[]): Promise<unknown[]> {
  const out: unknown[] = [];
  const stream = Stream.fromSSEResponse(responseOf(pieces), new AbortController());
  for await (const chunk of stream) out.push(chunk);
  return out;
}

/** Cuts `bytes` at random places (including inside multi-byte characters). */
function randomCuts(bytes: Uint8Array, random: () => number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const size = 1 + Math.floor(random() * 40);
    pieces.push(bytes.slice(at, at + size));
    at += size;
  }
  return pieces;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const chunk = (content: string, extra: object = {}) =>
  JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content }, ...extra }] });

describe('chatCompletionChunks', () => {
  it('yields what the openai client yields, however the bytes are cut', async () => {
    const endings = ['\n', '\r\n', '\r'];
    for (let seed = 1; seed <= 60; seed++) {
      const random = seeded(seed);
      const end = endings[seed % 3] as string;
      let text = `: keep-alive comment${end}${end}`;
      for (let i = 0; i < 30; i++) {
        const word = ['héllo', ' wörld', ' 🌳', '\\n', ' "quoted"'][i % 5] as string;
        if (i % 7 === 3) text += `event: message${end}`;
        if (i % 11 === 5) {
          // One event's JSON split over two data lines, joined with \n.
          const json = chunk(word);
          text += `data: ${json.slice(0, 10)}${end}data:${json.slice(10)}${end}${end}`;
        } else {
          text += `data: ${chunk(word)}${end}${end}`;
        }
      }
      text += `data: [DONE]${end}${end}data: ${chunk('after done')}${end}${end}`;
      const pieces = randomCuts(new TextEncoder().encode(text), random);
      const expected = await theirs(pieces);
      expect(expected.length).toBe(30);
      expect(await ours(pieces)).toEqual(expected);
    }
  });

  it('drops an event the stream ends inside, as the openai client does', async () => {
    const pieces = [`data: ${chunk('a')}\n\n`, `data: ${chunk('b')}\n`];
    expect(await ours(pieces)).toEqual(await theirs(pieces));
    expect(await ours(pieces)).toHaveLength(1);
  });

  it("throws the client's APIError for an error sent inside the stream", async () => {
    const pieces = [
      `data: ${chunk('a')}\n\n`,
      `data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`,
    ];
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const c of chatCompletionChunks(responseOf(pieces))) seen.push(c);
    })().catch((error: unknown) => error);
    expect(seen).toHaveLength(1);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('overloaded');
  });

  it('says what it got when an event is not JSON', async () => {
    await expect(ours(['data: {"id": "c", "choi\n\n'])).rejects.toThrow(
      /stream event that is not JSON.*\{"id": "c", "choi/,
    );
  });

  describe.each([
    ['global fetch', undefined],
    ["Arbor's httpFetch", httpFetch],
  ])('over HTTP with %s', (_name, fetch) => {
    let server: http.Server;
    let baseURL: string;
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let i = 0;
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          res.write(`data: ${chunk(`w${i++}`)}\n\n`);
        }, 5);
        res.on('close', () => clearInterval(timer));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    it('ends quietly when the request is aborted mid-stream', async () => {
      const client = new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0, fetch });
      const controller = new AbortController();
      const response = await client.chat.completions
        .create({ model: 'm', messages: [], stream: true }, { signal: controller.signal })
        .asResponse();
      const seen: unknown[] = [];
      for await (const c of chatCompletionChunks(response, controller.signal)) {
        seen.push(c);
        if (seen.length === 3) controller.abort();
      }
      expect(seen).toHaveLength(3);
      expect(controller.signal.aborted).toBe(true);
    });
  });
});
