import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions, functionEntry } from '#infra/bundling.ts';

const outDir = await mkdtemp(join(tmpdir(), 'bundles-'));
afterAll(() => rm(outDir, { recursive: true, force: true }));

const bundle = async (name: string): Promise<string> => {
  const outfile = join(outDir, name, 'index.mjs');
  await build({ ...esbuildOptions(functionEntry(name), outfile), sourcemap: false });
  return readFile(outfile, 'utf8');
};

/** Each SDK client's service id, which its bundled code spells out. */
const CLIENTS = {
  SQS: 'SendMessageBatch',
  SFN: 'StartExecution',
  SES: 'SendEmail',
  'API Gateway': 'CreateApiKey',
  S3: 'PutObject',
};

const clientsIn = (code: string): string[] =>
  Object.entries(CLIENTS)
    .filter(([, operation]) => code.includes(operation))
    .map(([client]) => client);

describe('bundles hold the clients their function declares, no others', () => {
  it('a group that needs only the table (tickets) bundles no SQS, SFN, SES, API Gateway or S3 client', async () => {
    expect(clientsIn(await bundle('tickets'))).toEqual([]);
  });

  it('a group that declares the queues and the payload bucket (signals) bundles those clients', async () => {
    expect(clientsIn(await bundle('signals'))).toEqual(['SQS', 'S3']);
  });

  it('the groups that send mail bundle the queue client, and only the mail worker bundles SES', async () => {
    expect(clientsIn(await bundle('auth'))).toEqual(['SQS']);
    expect(clientsIn(await bundle('mail-worker'))).toEqual(['SES']);
  });
});
