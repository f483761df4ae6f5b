// Runs the built `arbor serve` (dist/, as `npm start` does) in this process, so the benchmark can
// read this process's CPU time, and reports the event loop's delay (p50/p99/max, ms) on stderr on
// SIGUSR2, then starts a new measurement.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runServe } from '../../dist/server/cli/serve-command.js';

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
process.on('SIGUSR2', () => {
  const ms = (ns) => (ns / 1e6).toFixed(1);
  process.stderr.write(
    `LOOP_DELAY ${ms(delay.percentile(50))} ${ms(delay.percentile(99))} ${ms(delay.max)}\n`,
  );
  delay.reset();
});
process.exitCode = await runServe(process.argv.slice(2));
