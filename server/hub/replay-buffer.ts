/**
 * The most recent event frames of one session, bounded by count and by bytes, so a reconnecting
 * client can be sent exactly the frames after the last seq it applied.
 *
 * Frames are copied into large byte slabs outside the JavaScript heap and found through typed
 * arrays, so the buffer holds no object per frame: a streaming server keeps thousands of frames
 * per session, and as objects they filled the old generation (tens of MB with fifty sessions) that
 * every major collection has to mark. Views are made only when a client is actually replayed to.
 */

/** Frames are packed into slabs of this size; a larger frame gets a slab of its own. */
const SLAB_BYTES = 256 * 1024;

export class ReplayBuffer {
  private readonly seqs: Float64Array;
  private readonly slabOf: Float64Array;
  private readonly offsets: Int32Array;
  private readonly lengths: Int32Array;
  /** Ring position of the oldest frame, and how many are held. */
  private head = 0;
  private count = 0;
  private bytes = 0;
  /** Slabs still holding a kept frame; `slabs[0]` has the absolute number `firstSlab`. */
  private slabs: Buffer[] = [];
  private firstSlab = 0;
  /** Where the next frame goes in the newest slab. */
  private fill = SLAB_BYTES;

  constructor(
    private readonly maxFrames: number,
    private readonly maxBytes: number = 16 * 1024 * 1024,
  ) {
    this.seqs = new Float64Array(maxFrames);
    this.slabOf = new Float64Array(maxFrames);
    this.offsets = new Int32Array(maxFrames);
    this.lengths = new Int32Array(maxFrames);
  }

  push(seq: number, frame: Buffer): void {
    while (
      this.count > 0 &&
      (this.count >= this.maxFrames || this.bytes + frame.length > this.maxBytes)
    )
      this.dropOldest();
    const newest = this.slabs[this.slabs.length - 1];
    let slab: Buffer;
    if (frame.length > SLAB_BYTES) {
      slab = this.addSlab(frame.length);
      this.fill = SLAB_BYTES; // a frame of its own: the next one starts a new slab
    } else if (!newest || this.fill + frame.length > SLAB_BYTES) {
      slab = this.addSlab(SLAB_BYTES);
      this.fill = 0;
    } else {
      slab = newest;
    }
    const offset = frame.length > SLAB_BYTES ? 0 : this.fill;
    frame.copy(slab, offset);
    if (frame.length <= SLAB_BYTES) this.fill += frame.length;
    const at = (this.head + this.count) % this.maxFrames;
    this.seqs[at] = seq;
    this.slabOf[at] = this.firstSlab + this.slabs.length - 1;
    this.offsets[at] = offset;
    this.lengths[at] = frame.length;
    this.count++;
    this.bytes += frame.length;
  }

  /**
   * The frames with seq > lastSeq, in order, when the buffer still holds all of them (`[]` when
   * the client is up to date); `undefined` when some were already dropped or `lastSeq` is not a
   * point of this stream (then the client needs a snapshot).
   */
  since(lastSeq: number, currentSeq: number, baseSeq: number): Buffer[] | undefined {
    if (lastSeq === currentSeq) return [];
    if (lastSeq > currentSeq || lastSeq < baseSeq) return undefined;
    const oldest = this.count > 0 ? (this.seqs[this.head] as number) : currentSeq + 1;
    if (lastSeq + 1 < oldest) return undefined;
    const out: Buffer[] = [];
    for (let i = 0; i < this.count; i++) {
      const at = (this.head + i) % this.maxFrames;
      if ((this.seqs[at] as number) <= lastSeq) continue;
      const slab = this.slabs[(this.slabOf[at] as number) - this.firstSlab] as Buffer;
      const offset = this.offsets[at] as number;
      out.push(slab.subarray(offset, offset + (this.lengths[at] as number)));
    }
    return out;
  }

  private addSlab(size: number): Buffer {
    // Its own memory, not a slice of Node's shared pool, so dropping it frees it.
    const slab = Buffer.allocUnsafeSlow(size);
    this.slabs.push(slab);
    return slab;
  }

  private dropOldest(): void {
    this.bytes -= this.lengths[this.head] as number;
    this.head = (this.head + 1) % this.maxFrames;
    this.count--;
    // Let go of the slabs no kept frame lies in (all but the newest when the buffer is empty).
    const keepFrom =
      this.count > 0
        ? (this.slabOf[this.head] as number)
        : this.firstSlab + Math.max(0, this.slabs.length - 1);
    if (keepFrom > this.firstSlab) {
      this.slabs.splice(0, keepFrom - this.firstSlab);
      this.firstSlab = keepFrom;
    }
  }
}
