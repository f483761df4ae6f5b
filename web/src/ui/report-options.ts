/** What a part of the page may add to a notice it reports (the page's notices live in app/). */
export interface ReportOptions {
  /** One button on the notice (the undo of a delete); using it closes the notice. */
  action?: { label: string; run(): void };
  /** What the notice is about: a newer one with the same key replaces it, `clear(key)` drops it. */
  key?: string;
}
