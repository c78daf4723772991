import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `npm test`: the static checks (`npm run checks`) and the vitest suite side by side. The suite leaves cores
 * idle while its stack files wait on timers, threads and children (the `stack` project alone kept its two workers
 * busy about 65 % of the time); the checks, at the lowest CPU priority, take that idle time instead of their own
 * 40 s before the suite (docs/testing.md). Their output is held back and printed as one block when they end, so it does not interleave
 * with the suite's; a failed check ends the suite at once.
 */
const exited = (child: ChildProcess): Promise<number> =>
  new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

// `nice -n 19`: the lowest CPU priority, inherited by every check npm starts.
const checks = spawn('nice', ['-n', '19', 'npm', 'run', '--silent', 'checks'], { stdio: ['ignore', 'pipe', 'pipe'] });
const checksOutput: Buffer[] = [];
checks.stdout?.on('data', (chunk: Buffer) => checksOutput.push(chunk));
checks.stderr?.on('data', (chunk: Buffer) => checksOutput.push(chunk));

// Arguments after `npm test --` choose test files, as they did when `npm test` ended in `vitest run`.
const suite = spawn('vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });

const checksPassed = exited(checks).then((code) => {
  process.stdout.write(`\n── static checks (npm run checks): ${code === 0 ? 'passed' : 'FAILED'} ──\n`);
  process.stdout.write(Buffer.concat(checksOutput));
  if (code !== 0) suite.kill('SIGTERM');
  return code === 0;
});
const [passed, suiteCode] = await Promise.all([checksPassed, exited(suite)]);
process.exit(passed && suiteCode === 0 ? 0 : 1);
