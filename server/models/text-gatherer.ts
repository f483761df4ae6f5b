/*
 * Streamed text gathered from its deltas. Appending each delta to a string makes a rope node per
 * delta, and every delta and node stays alive until the message ends: at thousands of deltas a
 * second they outlive young-generation collections and are copied and promoted, which is what
 * makes those collections pause (bench/ws: the streamed text was two fifths of what the server
 * promoted). Here deltas wait in a short array and are joined every `FOLD_EVERY` into one flat
 * piece, so most of them die young; the text is a chain of those pieces, one link per
 * `FOLD_EVERY` deltas instead of one per delta.
 */

const FOLD_EVERY = 16;

export class TextGatherer {
  private readonly parts: string[] = [];
  private folded = '';

  append(piece: string): void {
    this.parts.push(piece);
    if (this.parts.length >= FOLD_EVERY) this.fold();
  }

  /** Everything appended so far. */
  text(): string {
    if (this.parts.length > 0) this.fold();
    return this.folded;
  }

  private fold(): void {
    this.folded += this.parts.join('');
    this.parts.length = 0;
  }
}
