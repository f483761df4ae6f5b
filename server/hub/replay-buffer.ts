/**
 * The most recent event frames of one session, bounded by count and by bytes, so a reconnecting
 * client can be sent exactly the frames after the last seq it applied. A ring of the frames as
 * they were sent: the same bytes every subscriber got, not a copy.
 */
export class ReplayBuffer {
  private readonly seqs: number[];
  private readonly frames: (Buffer | undefined)[];
  /** Ring position of the oldest frame, and how many are held. */
  private head = 0;
  private count = 0;
  private bytes = 0;

  constructor(
    private readonly maxFrames: number,
    private readonly maxBytes: number = 16 * 1024 * 1024,
  ) {
    this.seqs = new Array<number>(maxFrames).fill(0);
    this.frames = new Array<Buffer | undefined>(maxFrames).fill(undefined);
  }

  push(seq: number, frame: Buffer): void {
    while (
      this.count > 0 &&
      (this.count >= this.maxFrames || this.bytes + frame.length > this.maxBytes)
    ) {
      this.bytes -= (this.frames[this.head] as Buffer).length;
      this.frames[this.head] = undefined;
      this.head = (this.head + 1) % this.maxFrames;
      this.count--;
    }
    const at = (this.head + this.count) % this.maxFrames;
    this.seqs[at] = seq;
    this.frames[at] = frame;
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
      if ((this.seqs[at] as number) > lastSeq) out.push(this.frames[at] as Buffer);
    }
    return out;
  }
}
