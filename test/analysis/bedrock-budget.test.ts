import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReasoner } from '#lib/analysis/engine/default-reasoner.ts';
import { reasoning } from '#lib/ports/reasoner/reasoner-need.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { inspectApp } from '../infra/template.ts';
import { createIncident } from '../support/incidents.ts';

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const AI = '/api/v1/incident-ticket/resolve/ai';
/** Fault injection: a model that never answers, so every call runs out its whole budget. */
const bedrock = mockClient(BedrockRuntimeClient);

/** The reasoner the incidents function builds from the environment the stack deploys it with, over the rules. */
const deployedReasoner = () => {
  const view = inspectApp({ bedrockModelId: MODEL });
  const incidents = view.stack.groupFunctions.get('incidents');
  if (!incidents) throw new Error('no incidents function');
  const env = view.functionResource(incidents).Properties.Environment.Variables as Record<string, string>;
  const build = reasoning.build.reasoner;
  if (!build) throw new Error('the reasoning need builds no reasoner');
  return build(env)(defaultReasoner);
};

describe('Bedrock within the incidents function timeout', () => {
  let client: TestClient;
  let admin: SignedIn;
  beforeAll(async () => {
    bedrock.on(ConverseCommand).callsFake(() => new Promise(() => undefined));
    client = await startTestStack(undefined, undefined, { reasoner: deployedReasoner() });
    admin = await signUpBusiness(client, { businessName: 'Slow Model Co' });
  });
  afterAll(async () => {
    bedrock.restore();
    await client.stack.stop();
  });

  // Three calls in a row, each allowed 15 s, in a 15 s function: the gateway answered 502, not the fallback.
  it('answers the default engine when the model never answers, before Lambda would stop the function', async () => {
    const incidentId = (await createIncident(client, admin.auth)).id;
    const reply = await client.request('GET', `${AI}/suggestion/${incidentId}`, undefined, admin.auth);
    expect(reply.status, reply.text).toBe(200);
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(3);
  }, 40_000);
});
