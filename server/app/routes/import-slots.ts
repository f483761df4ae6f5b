/*
 * How many imports run at once. An import holds one line of its file in memory and keeps a disk
 * write going; a few at a time keep memory and disk bounded however many are sent (decision 055).
 * Extras are refused at once rather than queued: a queued upload would still hold its connection.
 */
export class ImportSlots {
  private running = 0;

  constructor(readonly limit: number) {}

  /** A release function when a slot is free, else undefined. */
  tryAcquire(): (() => void) | undefined {
    if (this.running >= this.limit) return undefined;
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }
}
