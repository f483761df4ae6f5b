import { findOnPath } from '../bash-launch.js';
import { checkUserNamespace } from '../bash-sandbox.js';

/*
 * The sandbox's tests attack bubblewrap's sandbox, so they need bubblewrap and user namespaces.
 * Where either is missing, each such file fails once, at its start, with what to install (.ci/run
 * installs it), instead of every attack failing with a confusing assertion, or passing against
 * plain bash that was never meant to hold it.
 */
export async function requireSandbox(): Promise<void> {
  const bwrap = findOnPath('bwrap');
  if (!bwrap) {
    throw new Error(
      'These tests need bubblewrap: install it (Debian: apt-get install bubblewrap; .ci/run does).',
    );
  }
  await checkUserNamespace(bwrap);
}
