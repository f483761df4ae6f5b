import type { TreeNode } from '../../shared/session-entries.js';
import { LineScanner, NODE } from './line-scan.js';

/*
 * The skeleton of one `message` line without JSON.parse, for a line in hand (the loader scans
 * whole files through `LineScanner` directly). The rule itself is the WebAssembly line scan's
 * (wasm/line-scan/message-line.ts): the envelope in the key order pi and Arbor write, then the
 * rest of the line walked as JSON, each key the node needs read in its own object and refused
 * when it occurs twice there. Anything unexpected returns undefined and the caller parses the
 * line. The result equals `nodeOfEntry(JSON.parse(line))` (tested, on hostile lines too:
 * line-scan-agreement.test.ts).
 */

let scanner: LineScanner | undefined;

/** The skeleton of the message line `file[lineStart, lineEnd)`, or undefined to parse it. */
export function scanMessageLine(
  file: Buffer,
  lineStart: number,
  lineEnd: number,
  /** The id of the line before (most often the parent): its string is shared, not made again. */
  previousId?: string,
): TreeNode | undefined {
  const length = lineEnd - lineStart;
  // The line, its newline and one byte more: the scan reports lines that are not the last read.
  if (!scanner || scanner.input.length < length + 2) scanner = new LineScanner(length + 2);
  file.copy(scanner.input, 0, lineStart, lineEnd);
  scanner.input[length] = 0x0a;
  scanner.input[length + 1] = 0x20;
  if (scanner.scan(0, length + 2) !== 1 || scanner.kind(0) !== NODE) return undefined;
  return scanner.node(0, previousId);
}
