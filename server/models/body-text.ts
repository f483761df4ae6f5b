import { finished, type Readable } from 'node:stream';
import { nodeBodyOf } from './http-fetch.js';

/*
 * A response body as text, read piece by piece for the SSE parser. `read()` gives everything that
 * arrived since the last call (a string, at once when there is some), `undefined` at the end, or a
 * promise when it has to wait; it throws what broke the body. Node's own async iterator over a
 * stream, and web streams more so, cost several objects and promises per network read; at ten
 * thousand streamed chunks a second that was a tenth of the server's allocations (bench/ws).
 */

export interface BodyText {
  read(): string | undefined | Promise<string | undefined>;
  /** Stops reading and lets go of the connection (after an early end). */
  cancel(): void;
}

/** A response from http-fetch.ts is read from its Node stream, any other from its web stream. */
export function bodyText(response: Response): BodyText | undefined {
  const source = nodeBodyOf(response);
  if (source) return nodeBodyText(source);
  return response.body ? new WebBodyText(response.body) : undefined;
}

export function nodeBodyText(source: Readable): BodyText {
  return new NodeBodyText(source);
}

/** Waiting pieces are at most this many before the socket is paused (backpressure). */
const QUEUE_LIMIT = 64;

class NodeBodyText implements BodyText {
  private readonly queue: string[] = [];
  private waiting:
    { resolve(text: string | undefined): void; reject(error: Error): void } | undefined;
  private ended = false;
  private failure: Error | undefined;

  constructor(private readonly source: Readable) {
    source.setEncoding('utf8');
    source.on('data', (piece: string) => {
      const waiting = this.waiting;
      if (waiting) {
        this.waiting = undefined;
        waiting.resolve(piece);
        return;
      }
      this.queue.push(piece);
      if (this.queue.length >= QUEUE_LIMIT) source.pause();
    });
    // `finished` reports a close before the end as ERR_STREAM_PREMATURE_CLOSE.
    finished(source, (error) => {
      this.ended = true;
      this.failure = error ?? undefined;
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting && error) waiting.reject(error);
      else waiting?.resolve(undefined);
    });
  }

  read(): string | undefined | Promise<string | undefined> {
    if (this.queue.length > 0) {
      const text = this.queue.length === 1 ? (this.queue[0] as string) : this.queue.join('');
      this.queue.length = 0;
      if (this.source.isPaused()) this.source.resume();
      return text;
    }
    if (this.failure) throw this.failure;
    if (this.ended) return undefined;
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  cancel(): void {
    if (!this.ended) this.source.destroy();
  }
}

class WebBodyText implements BodyText {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private ended = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  async read(): Promise<string | undefined> {
    const { done, value } = await this.reader.read();
    if (!done) return this.decoder.decode(value, { stream: true });
    this.ended = true;
    return this.decoder.decode() || undefined;
  }

  cancel(): void {
    if (!this.ended) void this.reader.cancel().catch(() => undefined);
  }
}
