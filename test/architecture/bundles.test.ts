import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { functionNames } from '#infra/bundling.ts';
import { BUDGET, buildBundle, FLOOR, type BuiltBundle } from '../../bench/bundle-sizes.ts';

const outDir = await mkdtemp(join(tmpdir(), 'bundles-'));
afterAll(() => rm(outDir, { recursive: true, force: true }));

/** The floor and every function, built once for the whole file, all at once. */
const built = new Map(
  (await Promise.all([FLOOR, ...functionNames()].map((name) => buildBundle(name, outDir)))).map(
    (bundle) => [bundle.name, bundle] as const,
  ),
);
const bundleOf = (name: string): BuiltBundle => {
  const bundle = built.get(name);
  if (!bundle) throw new Error(`no bundle ${name}`);
  return bundle;
};

/** A function's whole bundle: the entry and every chunk, loaded at cold start or later. */
const code = async (name: string): Promise<string> => {
  const files = Object.keys(bundleOf(name).metafile.outputs);
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
};

/** Each SDK client's service id, which its bundled code spells out. */
const CLIENTS = {
  SQS: 'SendMessageBatch',
  SFN: 'StartExecution',
  SES: 'SendEmail',
  'API Gateway': 'CreateApiKey',
  S3: 'PutObject',
};

const clientsIn = (text: string): string[] =>
  Object.entries(CLIENTS)
    .filter(([, operation]) => text.includes(operation))
    .map(([client]) => client);

describe('bundles hold the clients their function declares, no others', () => {
  it('a group that needs only the table (tickets) bundles no SQS, SFN, SES, API Gateway or S3 client', async () => {
    expect(clientsIn(await code('tickets'))).toEqual([]);
  });

  it('a group that declares the queues and the payload bucket (signals) bundles those clients', async () => {
    expect(clientsIn(await code('signals'))).toEqual(['SQS', 'S3']);
  });

  it('the groups that send mail bundle the queue client, and only the mail worker bundles SES', async () => {
    expect(clientsIn(await code('auth'))).toEqual(['SQS']);
    expect(clientsIn(await code('mail-worker'))).toEqual(['SES']);
  });
});

/** What a cold start of the function loads, against the floor built the same way (bench/bundle-sizes.ts). */
const overBudget = (name: string): string | undefined => {
  const { coldBytes } = bundleOf(name);
  const limit = BUDGET * bundleOf(FLOOR).coldBytes;
  return coldBytes > limit ? `${name}: ${coldBytes} bytes, over ${Math.floor(limit)}` : undefined;
};

describe('a cold start loads little more than a bare document-client handler', () => {
  it(`every function's entry file, with the chunks it imports statically, is at most ${BUDGET}x the floor`, () => {
    expect(functionNames().map(overBudget).filter(Boolean)).toEqual([]);
  });

  it('the incidents entry leaves the PDF renderer and its fonts to a chunk loaded on the first export', () => {
    const incidents = bundleOf('incidents');
    expect([...incidents.coldParts.keys()].filter((part) => /pdfmake|pdfkit|fontkit|lib\/reports/.test(part))).toEqual(
      [],
    );
    const lazyInputs = Object.entries(incidents.metafile.outputs)
      .filter(([file]) => incidents.lazyChunks.some((chunk) => file.endsWith(chunk.file)))
      .flatMap(([, output]) => Object.keys(output.inputs));
    expect(lazyInputs.some((input) => input.includes('node_modules/pdfmake/'))).toBe(true);
  });
});
