import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createBedrockReasoner } from '#lib/ports/reasoner/bedrock-reasoner.ts';
import { defaultReasoner } from '#lib/analysis/engine/default-reasoner.ts';
import type { Evidence } from '#lib/ports/reasoner/evidence.ts';

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const bedrock = mockClient(BedrockRuntimeClient);
// The unit project shares its workers' modules: a class-level mock left in place answers the next file's clients.
afterAll(() => {
  bedrock.restore();
});

const evidence: Evidence = {
  incident: {
    id: 'INC-20300101-0001',
    summary: 'Checkout failing',
    description: null,
    impactSummary: null,
    blastRadius: null,
    priority: 'HIGH',
    status: 'OPEN',
    environment: null,
    service: 'checkout',
    startedAt: '2030-01-01T10:00:00.000Z',
    createdAt: '2030-01-01T10:00:00.000Z',
    resolvedAt: null,
  },
  service: { name: 'checkout', upstreams: [], dependents: [] },
  items: [
    {
      id: 'signal:A',
      kind: 'SIGNAL',
      check: 'incident-signals',
      service: 'checkout',
      at: '2030-01-01T09:59:00.000Z',
      summary: 'HIGH signal "checkout 5xx"',
      strength: 0.7,
      details: { name: 'checkout 5xx', severity: 'HIGH' },
    },
  ],
  checks: [],
  gatheredAt: '2030-01-01T10:05:00.000Z',
};

const answer = (body: unknown) => ({
  output: { message: { role: 'assistant' as const, content: [{ text: JSON.stringify(body) }] } },
});
const HYPOTHESIS = {
  hypothesis: { text: 'Checkout broke on its own', evidenceIds: ['signal:A'] },
  rootCause: { text: 'A fault in checkout', evidenceIds: ['signal:A'] },
  plainCause: 'Something failed inside checkout.',
  suspect: { kind: 'SERVICE', service: 'checkout', evidenceId: 'signal:A' },
  confidence: 0.6,
};

describe('Bedrock reasoner', () => {
  const reasoner = createBedrockReasoner(
    new BedrockRuntimeClient({ region: 'us-east-1' }),
    MODEL,
    defaultReasoner,
    200,
  );
  beforeEach(() => bedrock.reset());

  it('asks the configured model through Converse with the evidence, and keeps its valid answer', async () => {
    bedrock.on(ConverseCommand).resolves(answer(HYPOTHESIS));
    const result = await reasoner.hypothesize(evidence);
    expect(result).toMatchObject({ ...HYPOTHESIS, engine: { name: 'bedrock', modelId: MODEL, fallbackReason: null } });
    const [call] = bedrock.commandCalls(ConverseCommand);
    expect(call?.args[0].input.modelId).toBe(MODEL);
    expect(JSON.stringify(call?.args[0].input.messages)).toContain('signal:A');
  });

  it('falls back to the default engine, and says why, on an error, a wrong shape or an invented citation', async () => {
    const cases: [() => void, RegExp][] = [
      [
        () =>
          bedrock
            .on(ConverseCommand)
            .rejects(Object.assign(new Error('Too many requests'), { name: 'ThrottlingException' })),
        /ThrottlingException/,
      ],
      [() => bedrock.on(ConverseCommand).resolves(answer({ hypothesis: 'just text' })), /wrong shape/],
      [
        () =>
          bedrock
            .on(ConverseCommand)
            .resolves({ output: { message: { role: 'assistant', content: [{ text: 'I cannot say.' }] } } }),
        /no JSON/,
      ],
      [
        () =>
          bedrock
            .on(ConverseCommand)
            .resolves(answer({ ...HYPOTHESIS, rootCause: { text: 'x', evidenceIds: ['deploy:made-up'] } })),
        /deploy:made-up/,
      ],
    ];
    for (const [arrange, reason] of cases) {
      bedrock.reset();
      arrange();
      const result = await reasoner.hypothesize(evidence);
      expect(result.engine).toMatchObject({ name: 'default', modelId: MODEL });
      expect(result.engine.fallbackReason).toMatch(reason);
      expect(result.rootCause).toEqual((await defaultReasoner.hypothesize(evidence)).rootCause);
    }
  });

  it('gives up on a model that does not answer in time', async () => {
    bedrock.on(ConverseCommand).callsFake(() => new Promise(() => {}));
    const started = Date.now();
    const impact = await reasoner.assessImpact(evidence, await defaultReasoner.hypothesize(evidence));
    expect(impact.engine.fallbackReason).toMatch(/^TimeoutError: no answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
