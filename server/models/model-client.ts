import OpenAI from 'openai';
import { Agent } from 'undici';

/*
 * The `openai` clients that talk to every model, on Node's own fetch with one undici `Agent` as
 * their dispatcher: a keep-alive pool per origin, and the idle timeout named here rather than left
 * to the runtime's default. The client builds, authenticates, times out, raises `APIError` for a
 * non-2xx status, and reads the stream (`create({ stream: true })`); this file adds only what a
 * person reads when the transport fails (`describeModelError`).
 *
 * What differs from a bare fetch, on purpose:
 *   - no compression is asked for (`accept-encoding: identity`), so no compressor holds streamed
 *     chunks back on either side; a body that arrives compressed anyway is decoded by fetch;
 *   - redirects are not followed: a model endpoint that answers 3xx is reported as it answered.
 */

/**
 * How long a model may send nothing once connected, before its headers or within its body, before
 * the request fails (undici's `headersTimeout` and `bodyTimeout`; these are their defaults).
 */
export const MODEL_IDLE_TIMEOUT_MS = 300_000;

/** A pooled connection is closed after 4 s unused (undici's default) or the server's shorter `Keep-Alive`. */
const KEEP_ALIVE_MS = 4_000;

export interface ModelConnection {
  client: OpenAI;
  idleTimeoutMs: number;
}

export function connectModel(
  baseURL: string,
  apiKey: string,
  idleTimeoutMs = MODEL_IDLE_TIMEOUT_MS,
  dispatcher = idleTimeoutMs === MODEL_IDLE_TIMEOUT_MS ? sharedPool() : poolFor(idleTimeoutMs),
): ModelConnection {
  const client = new OpenAI({
    baseURL,
    apiKey,
    maxRetries: 0,
    defaultHeaders: { 'accept-encoding': 'identity' },
    // undici's Agent against Node's bundled undici types: the same interface, another copy of it.
    fetchOptions: { dispatcher: dispatcher as never, redirect: 'manual' },
  });
  return { client, idleTimeoutMs };
}

function poolFor(idleTimeoutMs: number): Agent {
  return new Agent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    headersTimeout: idleTimeoutMs,
    bodyTimeout: idleTimeoutMs,
  });
}

let pool: Agent | undefined;
function sharedPool(): Agent {
  return (pool ??= poolFor(MODEL_IDLE_TIMEOUT_MS));
}

const connections = new Map<string, ModelConnection>();

/** One client per endpoint and key, all on the shared pool. */
export function modelConnection(baseURL: string, apiKey: string): ModelConnection {
  const key = `${baseURL}\n${apiKey}`;
  let connection = connections.get(key);
  if (!connection) {
    connection = connectModel(baseURL, apiKey);
    connections.set(key, connection);
  }
  return connection;
}

/** The codes of `error` and of every cause under it. */
function causes(error: unknown): { codes: Set<string>; innermost: unknown } {
  const codes = new Set<string>();
  let current = error;
  for (let depth = 0; depth < 8; depth++) {
    const code = (current as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') codes.add(code);
    const next = (current as { cause?: unknown } | undefined)?.cause;
    if (!(next instanceof Error)) break;
    current = next;
  }
  return { codes, innermost: current };
}

/**
 * What a person reads when a model request fails: the address refused, the time nothing came, the
 * connection lost mid-stream (the retry policy treats the last three as transient).
 */
export function describeModelError(error: unknown, idleTimeoutMs = MODEL_IDLE_TIMEOUT_MS): string {
  const { codes, innermost } = causes(error);
  if (codes.has('UND_ERR_HEADERS_TIMEOUT') || codes.has('UND_ERR_BODY_TIMEOUT'))
    return `The model's connection timed out: nothing came for ${idleTimeoutMs / 1000} s`;
  const detail = innermost instanceof Error ? innermost.message : String(innermost);
  // undici ends a body whose connection dropped with "terminated" (cause: "other side closed").
  if (error instanceof TypeError && error.message === 'terminated')
    return `Connection lost while the model was streaming (${detail})`;
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = innermost !== error ? `: ${detail}` : '';
    return `${error.message.replace(/\.$/, '')}${cause}`;
  }
  if (error instanceof Error) {
    const cause = innermost !== error ? ` (${detail})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
