import { spawnSync } from 'node:child_process';

/**
 * `npm run synth`: `cdk synth --quiet` with the arguments given after `--`. npm takes `-c` for itself
 * (its `--call`) and keeps only the last one, so `npm run synth -c stage=prod -c mailFrom=…` would reach
 * the CDK without them and quietly synthesize the default stage: that stops here and says how to pass them.
 */
if (process.env.npm_config_call) {
  console.error(
    `npm kept the -c options for itself (it saw only "${process.env.npm_config_call}"): ` +
      'run `npm run synth -- -c stage=prod -c mailFrom=ops@acme.com ...`, or `npx cdk synth -c ...`.',
  );
  process.exit(2);
}
const result = spawnSync('cdk', ['synth', '--quiet', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
