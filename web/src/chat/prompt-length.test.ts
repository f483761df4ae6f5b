import { describe, expect, it } from 'vitest';
import { MAX_PROMPT_CHARS } from '../../../shared/protocol';
import { promptLengthNote } from './prompt-length';

describe('promptLengthNote', () => {
  it('says nothing below nine tenths of the limit', () => {
    expect(promptLengthNote(0)).toBeNull();
    expect(promptLengthNote(MAX_PROMPT_CHARS * 0.9 - 1)).toBeNull();
  });
  it('counts from nine tenths of the limit up to the limit itself', () => {
    expect(promptLengthNote(912_345)).toEqual({
      over: false,
      text: '912,345 / 1,000,000 characters',
    });
    expect(promptLengthNote(MAX_PROMPT_CHARS)).toMatchObject({ over: false });
  });
  it('refuses past the limit, saying the length, the limit and what to do', () => {
    expect(promptLengthNote(1_200_000)).toEqual({
      over: true,
      text: 'This message is 1,200,000 characters; the limit is 1,000,000. Shorten it, or save it as a file in the workspace and ask the agent to read it.',
    });
  });
});
