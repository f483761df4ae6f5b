import { describe, expect, it } from 'vitest';
import { CodedError, PART_ERROR_CODES, type PartErrorCode } from './coded-error.js';
import { ERROR_CATALOG, toErrorBody } from './error-catalog.js';

class Refusal extends CodedError {
  constructor(
    readonly code: PartErrorCode,
    message: string,
  ) {
    super(message);
  }
}

describe('toErrorBody', () => {
  it("gives every part's code the protocol code its table names, with the part's words", () => {
    for (const [code, expected] of Object.entries(PART_ERROR_CODES)) {
      const body = toErrorBody(new Refusal(code as PartErrorCode, `refused: ${code}`));
      expect(body.code, code).toBe(expected);
      if (expected === 'internal') expect(body.message).toBe(ERROR_CATALOG.internal.message);
    }
  });

  it('keeps the message of a refusal that may be shown, and hides one that names files', () => {
    expect(toErrorBody(new Refusal('unknown_model', 'No model "x" here.'))).toEqual({
      code: 'invalid_argument',
      message: 'No model "x" here.',
    });
    expect(toErrorBody(new Refusal('not_a_session_file', '/srv/data/x.jsonl: bad'))).toEqual({
      code: 'internal',
      message: ERROR_CATALOG.internal.message,
    });
  });

  it('treats an error that only carries a code string as a fault, not as a refusal', () => {
    const stray = Object.assign(new Error('/srv/secret/path failed'), { code: 'session_busy' });
    expect(toErrorBody(stray)).toEqual({
      code: 'internal',
      message: ERROR_CATALOG.internal.message,
    });
  });
});
