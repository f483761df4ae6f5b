import {
  ClientMessageSchema,
  COMMAND_TYPES,
  RequestIdSchema,
  type ClientMessage,
  type ErrorBody,
} from '../../shared/protocol.js';
import { describeIssue } from './frame-issue-words.js';

/*
 * Turns one text frame into a ClientMessage or an error the client can act on. Errors carry the
 * request id when the frame had a usable one, so a client's pending request is answered rather
 * than left to time out.
 */

export type ParsedFrame =
  { ok: true; message: ClientMessage } | { ok: false; id?: string; error: ErrorBody };

const KNOWN_TYPES = new Set<string>(['hello', ...COMMAND_TYPES]);

export function parseClientFrame(text: string): ParsedFrame {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: 'bad_frame', message: 'The frame is not valid JSON.' } };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, error: { code: 'bad_frame', message: 'The frame must be a JSON object.' } };
  }
  const record = json as Record<string, unknown>;
  const idResult = RequestIdSchema.safeParse(record.id);
  const id = idResult.success ? idResult.data : undefined;
  const withId = id === undefined ? {} : { id };
  if (typeof record.type !== 'string') {
    return {
      ok: false,
      ...withId,
      error: { code: 'bad_frame', message: 'The frame needs a string "type".' },
    };
  }
  if (!KNOWN_TYPES.has(record.type)) {
    return {
      ok: false,
      ...withId,
      error: {
        code: 'unknown_command',
        message: `Unknown command "${record.type.slice(0, 64)}".`,
      },
    };
  }
  const parsed = ClientMessageSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      ...withId,
      error: {
        code: 'invalid_argument',
        message: issue ? describeIssue(issue, json) : `The "${record.type}" command is not valid.`,
      },
    };
  }
  return { ok: true, message: parsed.data };
}

const ID_FIELD = /"id"\s*:\s*"([^"\\]{1,64})"/;
const ENDS = 512;

/**
 * The request id of a frame too big to parse, when it stands near either end (clients put it
 * first or last, as Arbor's page does), so the refusal answers the request instead of leaving
 * it waiting. Only the ends are read: the frame's size is the problem.
 */
export function requestIdNearEnds(data: Buffer | ArrayBuffer | Buffer[]): string | undefined {
  const whole = Array.isArray(data)
    ? Buffer.concat(data)
    : Buffer.isBuffer(data)
      ? data
      : Buffer.from(data);
  const head = whole.subarray(0, ENDS).toString('utf8');
  const tail = whole.subarray(Math.max(0, whole.length - ENDS)).toString('utf8');
  const id = ID_FIELD.exec(tail)?.[1] ?? ID_FIELD.exec(head)?.[1];
  return id !== undefined && RequestIdSchema.safeParse(id).success ? id : undefined;
}
