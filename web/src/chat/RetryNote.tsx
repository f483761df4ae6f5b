import { openView } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';

/** Says that the open session retries a failed model call, and why (nothing otherwise). */
export function RetryNote() {
  const retry = usePage((state) => openView(state)?.retry ?? null);
  if (!retry) return null;
  return (
    <p className="retry-note" role="status">
      Retrying ({retry.attempt}/{retry.maxAttempts}) after: {retry.errorMessage}
    </p>
  );
}
