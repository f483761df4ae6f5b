import { isWhiteSpace, PREVIEW_LENGTH } from './tree-node.js';

/*
 * Builds a preview (white space collapsed, ends trimmed, 80 characters, `…` when cut) straight
 * from the bytes of JSON strings: UTF-8 and escapes are decoded only until 81 characters are
 * known, and no intermediate string is made. `makePreview(a + b + …)` and pushing a, b, … here
 * give the same result. The characters go into one fixed buffer, which `reset` makes ready for
 * the next preview: a big tree's previews are built without garbage.
 */
export class PreviewBuilder {
  /** The first PREVIEW_LENGTH + 1 characters (enough to know the preview is cut). */
  private readonly codes = new Uint16Array(PREVIEW_LENGTH + 1);
  /** The same memory as bytes, decoded as UTF-16 (one byte a character when every code allows). */
  private readonly utf16 = Buffer.from(
    this.codes.buffer,
    this.codes.byteOffset,
    this.codes.byteLength,
  );
  private length = 0;
  private pendingSpace = false;

  /** Empties the builder for the next preview. */
  reset(): this {
    this.length = 0;
    this.pendingSpace = false;
    return this;
  }

  get full(): boolean {
    return this.length > PREVIEW_LENGTH;
  }

  get empty(): boolean {
    return this.length === 0;
  }

  /** Adds white space (collapsed with its neighbours). */
  space(): void {
    if (this.length > 0) this.pendingSpace = true;
  }

  private push(code: number): void {
    // Characters past the first PREVIEW_LENGTH + 1 never show (the half of a surrogate pair).
    if (this.full) return;
    if (isWhiteSpace(code)) {
      this.space();
      return;
    }
    if (this.pendingSpace) {
      this.pendingSpace = false;
      this.codes[this.length++] = 0x20;
      if (this.full) return;
    }
    this.codes[this.length++] = code;
  }

  pushString(text: string): void {
    for (let i = 0; i < text.length && !this.full; i++) this.push(text.charCodeAt(i));
  }

  /**
   * Decodes the JSON string whose first byte (after the opening quote) is `bytes[at]`, until its
   * closing quote or until the preview is full. Returns the index of the closing quote, -1 when
   * it stopped because the preview was full, or -2 for bytes that are not a valid JSON string.
   */
  pushJsonString(bytes: Uint8Array, at: number, end: number): number {
    let i = at;
    while (i < end) {
      if (this.full) return -1;
      const c = bytes[i]!;
      if (c === 0x22) return i;
      if (c === 0x5c) {
        const e = bytes[i + 1];
        switch (e) {
          case 0x22:
          case 0x5c:
          case 0x2f:
            this.push(e);
            i += 2;
            continue;
          case 0x62:
            this.push(0x08);
            i += 2;
            continue;
          case 0x66:
            this.push(0x0c);
            i += 2;
            continue;
          case 0x6e:
            this.push(0x0a);
            i += 2;
            continue;
          case 0x72:
            this.push(0x0d);
            i += 2;
            continue;
          case 0x74:
            this.push(0x09);
            i += 2;
            continue;
          case 0x75: {
            if (i + 6 > end) return -2;
            let code = 0;
            for (let k = i + 2; k < i + 6; k++) {
              const h = bytes[k]!;
              const digit =
                h >= 0x30 && h <= 0x39
                  ? h - 0x30
                  : h >= 0x61 && h <= 0x66
                    ? h - 0x57
                    : h >= 0x41 && h <= 0x46
                      ? h - 0x37
                      : -1;
              if (digit < 0) return -2;
              code = code * 16 + digit;
            }
            this.push(code);
            i += 6;
            continue;
          }
          default:
            return -2;
        }
      }
      if (c < 0x20) return -2;
      if (c < 0x80) {
        this.push(c);
        i++;
        continue;
      }
      // Multi-byte UTF-8: decode the code point, push UTF-16 code units.
      let point: number;
      let size: number;
      if (c >= 0xf0) {
        point = c & 0x07;
        size = 4;
      } else if (c >= 0xe0) {
        point = c & 0x0f;
        size = 3;
      } else if (c >= 0xc0) {
        point = c & 0x1f;
        size = 2;
      } else {
        return -2;
      }
      if (i + size > end) return -2;
      for (let k = 1; k < size; k++) point = (point << 6) | (bytes[i + k]! & 0x3f);
      if (point > 0xffff) {
        point -= 0x10000;
        this.push(0xd800 + (point >> 10));
        this.push(0xdc00 + (point & 0x3ff));
      } else {
        this.push(point);
      }
      i += size;
    }
    return -2;
  }

  toString(): string {
    if (this.length > PREVIEW_LENGTH) {
      this.codes[PREVIEW_LENGTH - 1] = 0x2026;
      return this.utf16.toString('utf16le', 0, PREVIEW_LENGTH * 2);
    }
    return this.utf16.toString('utf16le', 0, this.length * 2);
  }
}
