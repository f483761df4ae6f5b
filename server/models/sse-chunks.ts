import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { bodyText } from './body-text.js';

/*
 * The chunks of a streamed chat completion, read from the HTTP response the `openai` client
 * returned for the request (`.asResponse()`: the client still builds, sends, authenticates and
 * turns a non-2xx status into its APIError). The client's own stream reader wraps each chunk in
 * three layers of async generators and copies bytes between them; at tens of thousands of chunks a
 * second that was a sixth of the server's time per chunk. This reader keeps the client's
 * semantics, checked against it on the same bytes in the tests:
 *   - server-sent events as the WHATWG spec splits them: lines end in \n, \r\n or \r; `data:`
 *     lines join with \n; `:` lines are comments; an event ends at a blank line, and an event the
 *     stream ends inside is dropped;
 *   - `[DONE]` ends the chunks (the rest of the body is still read, so the connection can be
 *     reused);
 *   - a chunk whose JSON carries `error` throws the client's APIError; JSON that does not parse
 *     throws a SyntaxError that says so;
 *   - an abort ends the chunks quietly; the caller sees its own signal aborted;
 *   - a connection that drops mid-body throws an error that says so.
 * The body is read as text by body-text.ts.
 */

export async function* chatCompletionChunks(
  response: Response,
  signal?: AbortSignal,
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const body = bodyText(response);
  if (!body) return;
  const parser = new EventParser();
  let done = false;
  let ended = false;
  try {
    for (;;) {
      let text = body.read();
      if (text !== undefined && typeof text !== 'string') text = await text;
      if (text === undefined) break;
      for (const event of parser.push(text)) {
        if (done) continue;
        if (event.data.startsWith('[DONE]')) {
          done = true;
          continue;
        }
        // Assistants' `thread.*` events do not belong to a chat completion.
        if (event.event?.startsWith('thread.')) continue;
        yield parseChunk(event, response.headers);
      }
    }
    ended = true;
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) return;
    if (isDroppedConnection(error))
      // Node says "aborted" for a peer that hung up, which reads as if someone had pressed Stop.
      throw new ConnectionLostError(error);
    throw error;
  } finally {
    if (!ended) body.cancel();
  }
}

/** The model's server hung up mid-answer; the message says all a person needs, the cause the rest. */
export class ConnectionLostError extends Error {
  constructor(cause: Error & { code: string }) {
    super(`Connection lost while the model was streaming (${cause.code})`, { cause });
  }
}

function isDroppedConnection(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    error instanceof Error &&
    (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE')
  );
}

interface ServerSentEvent {
  event: string | null;
  data: string;
}

function parseChunk(event: ServerSentEvent, headers: Headers): ChatCompletionChunk {
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch (error) {
    throw new SyntaxError(
      `The model sent a stream event that is not JSON (${(error as Error).message}): ${event.data.slice(0, 200)}`,
      { cause: error },
    );
  }
  if (value !== null && typeof value === 'object' && 'error' in value && value.error)
    throw new OpenAI.APIError(undefined, value.error as object, undefined, headers);
  return value as ChatCompletionChunk;
}

function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || error instanceof OpenAI.APIUserAbortError)
  );
}

/** Splits decoded text into server-sent events; text may be cut anywhere between pushes. */
class EventParser {
  private rest = '';
  /** The previous push ended in \r: a \n starting the next one belongs to that line end. */
  private pendingCarriageReturn = false;
  private data: string[] = [];
  private event: string | null = null;

  push(text: string): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    // `rest` is empty whenever `pendingCarriageReturn` is set: a \r ends the line it closes.
    const input = this.rest + text;
    let at = this.pendingCarriageReturn && input.charCodeAt(0) === 10 ? 1 : 0;
    this.rest = '';
    this.pendingCarriageReturn = false;
    while (at < input.length) {
      let end = at;
      while (end < input.length) {
        const code = input.charCodeAt(end);
        if (code === 10 || code === 13) break;
        end++;
      }
      if (end === input.length) {
        this.rest = input.slice(at);
        break;
      }
      const line = input.slice(at, end);
      if (input.charCodeAt(end) === 13) {
        if (end + 1 === input.length) this.pendingCarriageReturn = true;
        else if (input.charCodeAt(end + 1) === 10) end++;
      }
      at = end + 1;
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line.length === 0) {
      if (this.data.length === 0 && this.event === null) return undefined;
      const event = { event: this.event, data: this.data.join('\n') };
      this.data = [];
      this.event = null;
      return event;
    }
    if (line.charCodeAt(0) === 58) return undefined; // ':' starts a comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    return undefined;
  }
}
