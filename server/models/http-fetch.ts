import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';

/*
 * `fetch` for the model clients, over node:http and node:https. Node's own fetch (undici) moves
 * every body chunk through web streams and promises; at ten thousand streamed chunks a second that
 * was half of the server's time per chunk and most of its short-lived garbage (bench/ws: a relay on
 * node:http costs 49 µs a chunk, the same relay on fetch 92 µs). The `openai` client takes this in
 * place of the global one (through pi-ai's `fetch` option) and keeps doing everything else: URLs, headers, auth, timeouts (through
 * the signal), errors.
 *
 * The response is a standard Response. Its body is a web stream that reads the socket only when
 * someone reads it, and says in words when the model hung up mid-answer (`ConnectionLostError`).
 *
 * What differs from fetch, on purpose: redirects are not followed (a model endpoint that redirects
 * is answered as it answered); no compression is asked for, so streamed chunks are not held in a
 * compressor on either side, but gzip, deflate and br bodies are decoded as fetch does. Anything
 * this cannot send (a Request object, a streamed or form body, a scheme other than http(s)) goes
 * to the global fetch unchanged.
 */

/**
 * A pooled connection is closed after 4 s unused (undici's keep-alive default), or sooner when the
 * server's `Keep-Alive: timeout` says so: a connection a load balancer dropped while it sat idle
 * is not reused.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: 4_000 }),
  'https:': new https.Agent({ keepAlive: true, timeout: 4_000 }),
};

/**
 * How long a model may send nothing once connected, before its headers or within its body, before
 * the request fails (undici's `headersTimeout` and `bodyTimeout`, whose defaults these are).
 * Connecting itself is bounded by the system and by the `openai` client's own timeout.
 */
export const MODEL_IDLE_TIMEOUT_MS = 300_000;

export function createHttpFetch(idleTimeoutMs = MODEL_IDLE_TIMEOUT_MS): typeof fetch {
  return (input, init = {}) => {
    const url =
      typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
    const body = init.body ?? undefined;
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))
    )
      return fetch(input, init);
    return request(url, init, body, idleTimeoutMs);
  };
}

export const httpFetch = createHttpFetch();

function request(
  url: URL,
  init: RequestInit,
  body: string | Uint8Array | undefined,
  idleTimeoutMs: number,
) {
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const protocol = url.protocol as keyof typeof agents;
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (protocol === 'https:' ? https : http).request(url, {
      method: init.method ?? 'GET',
      headers,
      agent: agents[protocol],
    });
    let incoming: IncomingMessage | undefined;
    outgoing.setTimeout(idleTimeoutMs, () => {
      const error = Object.assign(
        new Error(`The model's connection timed out: nothing came for ${idleTimeoutMs / 1000} s`),
        { code: 'ETIMEDOUT' },
      );
      if (incoming) incoming.destroy(error);
      outgoing.destroy(error);
    });
    const onAbort = () => outgoing.destroy(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? (signal.reason as Error) : error);
    });
    outgoing.once('response', (response) => {
      incoming = response;
      response.once('close', () => signal?.removeEventListener('abort', onAbort));
      // This runs inside Node's HTTP parser: whatever throws here must become the request's error.
      try {
        resolve(toResponse(response, init.method === 'HEAD'));
      } catch (error) {
        response.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    outgoing.end(body);
  });
}

function toResponse(incoming: IncomingMessage, head: boolean): Response {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = incoming.statusCode ?? 0;
  // Node's parser takes any three digits; a Response only 200–599 (1xx never reach here).
  if (status < 200 || status > 599)
    throw new Error(`The model answered with HTTP status ${status}, which is not a valid status`);
  const init = { status, statusText: incoming.statusMessage ?? '', headers };
  if (head || status === 204 || status === 205 || status === 304) {
    incoming.resume();
    return new Response(null, init);
  }
  return new Response(lazyWebStream(decoded(incoming)), init);
}

/** The body as sent, before content encoding; errors keep their cause and say what broke. */
function decoded(incoming: IncomingMessage): Readable {
  const encoding = incoming.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return incoming;
  // Either end's failure or destruction ends the other: a cancelled read lets go of the model.
  return pipeline(incoming, decoder, () => undefined);
}

/**
 * The model's server hung up mid-answer. The message says all a person needs, once: pi-ai adds
 * an error's cause to its text, and Node's cause ("aborted") says nothing more than the code.
 */
export class ConnectionLostError extends Error {
  constructor(cause: Error & { code: string }) {
    super(`Connection lost while the model was streaming (${cause.code})`);
  }
}

function isDroppedConnection(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    error instanceof Error &&
    (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE')
  );
}

/**
 * When a reader stops before the body's end (the SDK stops at `[DONE]`, a moment before the server's
 * end of response), what is left is read for at most this long and this much, so that the
 * connection goes back to the pool; a body that goes on is cut.
 */
const DRAIN_MS = 200;
const DRAIN_BYTES = 64 * 1024;

function letGo(source: Readable): void {
  if (source.readableEnded || source.destroyed) return;
  let left = DRAIN_BYTES;
  const timer = setTimeout(() => source.destroy(), DRAIN_MS);
  const stop = () => clearTimeout(timer);
  source.once('end', stop);
  source.once('close', stop);
  source.on('data', (piece: Buffer) => {
    left -= piece.length;
    if (left < 0) source.destroy();
  });
  source.resume();
}

/** A web stream that pulls from `source` only when read, and lets go of it when cancelled. */
function lazyWebStream(source: Readable): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // The iterator leaves the stream as it is when returned: `cancel` decides its fate.
        chunks ??= source.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
        let next: IteratorResult<Buffer>;
        try {
          next = await chunks.next();
        } catch (error) {
          throw isDroppedConnection(error) ? new ConnectionLostError(error) : error;
        }
        if (next.done) controller.close();
        else
          controller.enqueue(
            new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.length),
          );
      },
      async cancel() {
        await chunks?.return?.();
        letGo(source);
      },
    },
    { highWaterMark: 0 },
  );
}
