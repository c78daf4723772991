import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { normalizeCodehostA } from '#lib/ingestion/senders/codehost-a/normalize.ts';
import { RECEIVED_AT, expectWellFormed } from './support.ts';

interface WebhookDefinition {
  name: string;
  examples: unknown[];
}

// The package is plain JSON behind a `main` entry, read the way it is published.
const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];
const examples = definitions.flatMap(({ name, examples: bodies }) =>
  bodies.map((body, index) => ({ event: name, index, body })),
);

describe('every @octokit/webhooks-examples payload through the code host A normalizer', () => {
  it('holds the 329 examples of 7.6.1', () => {
    expect(examples).toHaveLength(329);
  });

  it('normalizes each one, with the event name GitHub sends beside it, without throwing', () => {
    const failures: string[] = [];
    const actions = { trigger: 0, acknowledge: 0, resolve: 0, record: 0 };
    for (const { event, index, body } of examples) {
      try {
        const events = normalizeCodehostA(body, { 'x-github-event': event }, RECEIVED_AT);
        expect(events).toHaveLength(1);
        for (const normalized of events) {
          expectWellFormed(normalized, 'codehost-a');
          actions[normalized.action] += 1;
        }
      } catch (error) {
        failures.push(`${event}#${index}: ${String(error)}`);
      }
    }
    expect(failures).toEqual([]);
    // The failing check run and the failing workflow job; nothing in the set resolves.
    expect(actions).toEqual({ trigger: 2, acknowledge: 0, resolve: 0, record: 327 });
  });

  it('gives each example the same fingerprint twice', () => {
    for (const { event, body } of examples) {
      const once = normalizeCodehostA(body, { 'x-github-event': event }, RECEIVED_AT)[0]?.fingerprint;
      const again = normalizeCodehostA(structuredClone(body), { 'x-github-event': event }, new Date())[0]?.fingerprint;
      expect(again).toBe(once);
    }
  });

  it('turns every workflow_run into a pipeline run and every deployment_status into a change', () => {
    for (const { event, body } of examples) {
      const [normalized] = normalizeCodehostA(body, { 'x-github-event': event }, RECEIVED_AT);
      if (event === 'workflow_run') expect(normalized?.pipelineRun?.scope).toBe('run');
      if (event === 'workflow_job') expect(normalized?.pipelineRun?.scope).toBe('job');
      if (event === 'deployment_status' || event === 'deployment')
        expect(normalized?.change?.provider).toBe('codehost_a');
    }
  });
});
