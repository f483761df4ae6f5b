import fs from 'node:fs';

/*
 * The append side of a session file. Every entry is one `write(2)` of its whole line on an O_APPEND
 * descriptor, so a returned append is in the kernel (it survives a crash of this process) and two
 * lines never interleave. A failed write is cut back so that no half line is left for the next
 * append to be glued onto. `sync` is the fsync the agent calls once per turn and on close.
 */
export class SessionWriter {
  private closed = false;

  private constructor(
    private readonly fd: number,
    /** Current file length: where the next line starts. */
    public size: number,
  ) {}

  /** Opens `file` for appending; it must exist. */
  static open(file: string): SessionWriter {
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND);
    return new SessionWriter(fd, fs.fstatSync(fd).size);
  }

  /** Creates `file`, which must not exist, with `firstLine` in it, fsynced with its directory. */
  /** Creates `file` with `firstLine`, fsynced unless `durable` is false (the caller syncs later). */
  static create(file: string, firstLine: string, durable = true): SessionWriter {
    const flags =
      fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_EXCL;
    const fd = fs.openSync(file, flags, 0o644);
    const writer = new SessionWriter(fd, 0);
    writer.append(firstLine);
    if (durable) writer.sync();
    return writer;
  }

  /** Appends `text` (whole lines); returns the byte offset where it starts. */
  append(text: string): number {
    if (this.closed) throw new Error('The session file is closed');
    const bytes = Buffer.from(text, 'utf8');
    const offset = this.size;
    let written = 0;
    try {
      while (written < bytes.length) {
        written += fs.writeSync(this.fd, bytes, written, bytes.length - written);
      }
    } catch (error) {
      if (written > 0) {
        try {
          fs.ftruncateSync(this.fd, offset);
        } catch {
          // The write error below is the one worth reporting.
        }
      }
      throw error;
    }
    this.size += bytes.length;
    return offset;
  }

  sync(): void {
    if (!this.closed) fs.fsyncSync(this.fd);
  }

  close(): void {
    if (this.closed) return;
    try {
      fs.fsyncSync(this.fd);
    } finally {
      this.closed = true;
      fs.closeSync(this.fd);
    }
  }
}

/** Fsyncs a directory so that a created or renamed file in it survives a power loss. */
export function fsyncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
