// Runs the built `arbor serve` (dist/, as `npm start` does) in this process, so the benchmark can
// read this process's CPU time, and reports the event loop's delay on SIGUSR2
// (loop-delay-report.mjs).
import './loop-delay-report.mjs';
import { runServe } from '../../dist/server/cli/serve-command.js';

process.exitCode = await runServe(process.argv.slice(2));
