import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
/** The client factory: the least-privilege proof hooks every client there (lib/ports/aws-client.ts). */
const FACTORY = 'lib/ports/aws-client.ts';

/** Names a module takes from the SDK, by a static import or by destructuring an `import()` of it. */
const sdkNames = (source: string): Set<string> => {
  const names = new Set<string>();
  const add = (list: string) => {
    for (const part of list.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+|:\s*/)
        .at(-1);
      if (name) names.add(name);
    }
  };
  for (const [, list = ''] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@aws-sdk\/[^']+'/g)) add(list);
  for (const [, name = ''] of source.matchAll(/import\s*\*\s*as\s+(\w+)\s+from\s*'@aws-sdk\/[^']+'/g)) names.add(name);
  // `const [{ SQSClient }, { createSqsQueue }] = await Promise.all([import('@aws-sdk/client-sqs'), ...])`
  for (const [, lists = ''] of source.matchAll(/const\s*\[([^\]]*)\]\s*=\s*await\s+Promise\.all\(\[[^\]]*'@aws-sdk\//g))
    for (const [, list = ''] of lists.matchAll(/\{([^}]*)\}/g)) add(list);
  for (const [, list = ''] of source.matchAll(/const\s*\{([^}]*)\}\s*=\s*await\s+import\('@aws-sdk\/[^']+'\)/g))
    add(list);
  return names;
};

/** A command or an error is made anywhere; anything else the SDK constructs is a client or wraps one. */
const NOT_A_CLIENT = /(?:Command|Exception|Error)$/;

/** Each `new X(` of a module where X is taken from the SDK, or is any class named `...Client`. */
const clientConstructions = (source: string): string[] => {
  const names = sdkNames(source);
  return [...source.matchAll(/\bnew\s+([\w$]+)(?:\.([\w$]+))?\s*\(/g)]
    .filter(([, head = '', member]) => {
      const constructed = member ?? head;
      return (names.has(head) && !NOT_A_CLIENT.test(constructed)) || /Client$/.test(constructed);
    })
    .map(([construction]) => construction);
};

const sourceFiles = (folder: string): string[] =>
  (readdirSync(join(ROOT, folder), { recursive: true }) as string[])
    .filter((file) => /\.(?:ts|mts|tsx)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file));

describe('AWS SDK clients', () => {
  it('are constructed only by the client factory, so the proof sees every command of every client', () => {
    const outside = ['lib', 'functions', 'infra']
      .flatMap(sourceFiles)
      .filter((file) => file !== FACTORY)
      .flatMap((file) =>
        clientConstructions(readFileSync(join(ROOT, file), 'utf8')).map((found) => `${file}: ${found}`),
      );
    expect(outside).toEqual([]);
  });

  it('are found however the module names them', () => {
    const probes = [
      "import { SNSClient } from '@aws-sdk/client-sns';\nconst c = new SNSClient({});",
      "import { KMS as Keys } from '@aws-sdk/client-kms';\nconst c = new Keys({});",
      "import * as sqs from '@aws-sdk/client-sqs';\nconst c = new sqs.SQSClient({});",
      "const [{ S3Client }, { store }] = await Promise.all([import('@aws-sdk/client-s3'), import('./s.ts')]);\nnew S3Client({});",
      "const { SFNClient } = await import('@aws-sdk/client-sfn');\nnew SFNClient({});",
    ];
    expect(probes.map((probe) => clientConstructions(probe).length)).toEqual([1, 1, 1, 1, 1]);
    const commands = "import { PutObjectCommand } from '@aws-sdk/client-s3';\nnew PutObjectCommand({});\nnew Map();";
    expect(clientConstructions(commands)).toEqual([]);
  });
});
