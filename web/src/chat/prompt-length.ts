import { MAX_PROMPT_CHARS } from '../../../shared/protocol';

/*
 * What the editor says about a message's length, against the protocol's limit (counted as the
 * server counts it: a string's length). Nothing below nine tenths of the limit; a counter from
 * there; past the limit, the refusal the Send button stands behind.
 */

export interface LengthNote {
  text: string;
  over: boolean;
}

const count = (value: number): string => value.toLocaleString('en-US');

export function promptLengthNote(length: number, limit = MAX_PROMPT_CHARS): LengthNote | null {
  if (length > limit) {
    return {
      over: true,
      text: `This message is ${count(length)} characters; the limit is ${count(limit)}. Shorten it, or save it as a file in the workspace and ask the agent to read it.`,
    };
  }
  if (length >= limit * 0.9)
    return { over: false, text: `${count(length)} / ${count(limit)} characters` };
  return null;
}
