/**
 * Beside the context meter once a compaction summarised part of the path: what the dimmed
 * messages and nodes mean (decision 076).
 */
export function ContextLegend({ summarised }: { summarised: number }) {
  if (summarised === 0) return null;
  return (
    <span
      className="context-legend"
      title="A compaction summarised these: they stay in the history (chat and graph) but are not sent to the model."
    >
      <span className="context-legend-swatch" aria-hidden="true" />
      Dimmed: {summarised} summarised, not sent to the model
    </span>
  );
}
