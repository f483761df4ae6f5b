/** A set of listeners called in order; one that throws breaks neither the caller nor the others. */
export class EventListeners<E> {
  private readonly listeners = new Set<(event: E) => void>();

  add(listener: (event: E) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: E): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A failing listener must not break the run or the other listeners.
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
