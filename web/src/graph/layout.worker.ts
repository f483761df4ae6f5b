import { layoutTree, type LayoutInput } from './tree-layout';

/*
 * Runs the tidy-tree layout off the main thread. Each request carries a sequence number; the reply
 * echoes it so the caller can drop answers to layouts it no longer needs.
 */

interface LayoutRequest {
  seq: number;
  input: LayoutInput;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

scope.onmessage = (event) => {
  const { seq, input } = event.data;
  const result = layoutTree(input);
  scope.postMessage({ seq, result }, [result.positions.buffer]);
};
