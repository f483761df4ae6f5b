/**
 * The most recent serialised event frames of one session, bounded by count and by bytes, so a
 * reconnecting client can be sent exactly the frames after the last seq it applied. A frame is
 * anything with a length in bytes (the hub keeps encoded frames).
 */
export class ReplayBuffer<Frame extends { readonly length: number } = Buffer> {
  private frames: { seq: number; frame: Frame }[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private readonly maxFrames: number,
    private readonly maxBytes: number = 16 * 1024 * 1024,
  ) {}

  push(seq: number, frame: Frame): void {
    this.frames.push({ seq, frame });
    this.bytes += frame.length;
    while (
      this.frames.length - this.head > this.maxFrames ||
      (this.bytes > this.maxBytes && this.frames.length - this.head > 1)
    ) {
      const dropped = this.frames[this.head++];
      if (dropped) this.bytes -= dropped.frame.length;
    }
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * The frames with seq > lastSeq, in order, when the buffer still holds all of them (`[]` when
   * the client is up to date); `undefined` when some were already dropped or `lastSeq` is not a
   * point of this stream (then the client needs a snapshot).
   */
  since(lastSeq: number, currentSeq: number, baseSeq: number): Frame[] | undefined {
    if (lastSeq === currentSeq) return [];
    if (lastSeq > currentSeq || lastSeq < baseSeq) return undefined;
    const first = this.frames[this.head];
    const oldest = first ? first.seq : currentSeq + 1;
    if (lastSeq + 1 < oldest) return undefined;
    const out: Frame[] = [];
    for (let i = this.head; i < this.frames.length; i++) {
      const item = this.frames[i] as { seq: number; frame: Frame };
      if (item.seq > lastSeq) out.push(item.frame);
    }
    return out;
  }
}
