import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import { GENEROUS_RATE_LIMITS, startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant } from '../ingestion-routes/support.ts';
import { createIncident } from '../support/incidents.ts';
import { expectNoInstants } from './analysis-texts.ts';
import {
  analyse,
  deployHelloWorld,
  deployWithCodeDeploy,
  JARGON,
  type MappedService,
  mapServices,
  postSignal,
} from './support.ts';

const DEPLOY_ID = 'deploy:codehost_a-145988746';
const SHA = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';
const MINUTE = 60_000;

/**
 * checkout calls payments-api, which calls ledger; checkout also calls inventory. The code host's real deployment
 * (`Codertocat/Hello-World`, by Codertocat) is of whichever service a scenario builds from that repository.
 */
const service = (name: string, team: string, builtFromFixture = false): MappedService => ({
  name,
  team,
  ...(builtFromFixture ? { repository: 'Codertocat/Hello-World' } : {}),
});

/** Where each text appears in the hypothesis: the chain must be told root first. */
const positions = (text: string, parts: string[]) => parts.map((part) => text.indexOf(part));
const expectInOrder = (text: string, parts: string[]) => {
  const found = positions(text, parts);
  expect(
    found.every((index) => index >= 0),
    `${parts.join(' < ')} in:\n${text}`,
  ).toBe(true);
  expect(found, text).toEqual([...found].sort((a, b) => a - b));
};

describe('analysis: a cause is a chain up the service map to the change behind it', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack(':memory:', GENEROUS_RATE_LIMITS);
  });
  afterAll(() => client.stack.stop());

  const workspace = async (name: string, services: MappedService[], edges: [string, string][], zone?: string) => {
    const tenant = await createTenant(client, name);
    if (zone) {
      const ims = await client.request(
        'POST',
        '/api/v1/ims/setup',
        { alertEmail: 'ops@example.com', timezone: zone },
        tenant.admin.auth,
      );
      expect(ims.status, ims.text).toBe(201);
    }
    await mapServices(client, tenant.admin, services, edges);
    return tenant;
  };
  const incidentOn = async (as: SignedIn, serviceArea: string) =>
    (await createIncident(client, as.auth, { serviceArea, summary: `${serviceArea} is failing` })).id as string;
  const alert = (as: SignedIn, serviceId: string, name: string, minutesAgo: number) =>
    postSignal(client, as, { serviceId, name, minutesAgo });

  it('one hop: the service deployed, then failed', async () => {
    const { admin, keyHeaders } = await workspace('One Hop Co', [service('payments-api', 'payments', true)], []);
    await deployHelloWorld(client, keyHeaders, 10);
    await alert(admin, 'payments-api', 'payments-api requests timing out', 8);
    const analysis = await analyse(client, admin, await incidentOn(admin, 'payments-api'));

    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expect(analysis.rootCause).toMatch(
      /^The change deployed to payments-api at \d{2}:\d{2} on \d{1,2} \w+ \d{4} \(UTC\) by Codertocat: Deployment codehost_a-145988746 of Codertocat\/Hello-World/,
    );
    expect(analysis.rootCause).toContain(`commit ${SHA}`);
    expectInOrder(analysis.hypothesis, ['payments-api was deployed at', 'payments-api began failing 2 minutes later']);
    expect(analysis.confidence).toBeGreaterThanOrEqual(0.7);
    expect(analysis.remediationOptions[0]).toMatch(
      /^Roll payments-api back .* revert commit f95f852 .*\(owner: team payments\)\.$/,
    );
    await expectNoInstants(client, admin, analysis);
  });

  it('two hops: the upstream deployed, then failed, then its dependent: the deploy is the cause, in the zone', async () => {
    const { admin, keyHeaders } = await workspace(
      'Two Hop Co',
      [service('checkout', 'storefront'), service('payments-api', 'payments', true)],
      [['checkout', 'payments-api']],
      'Europe/Paris',
    );
    await deployHelloWorld(client, keyHeaders, 10);
    await alert(admin, 'payments-api', 'payments-api requests timing out', 8);
    await alert(admin, 'checkout', 'checkout errors above 5%', 6);
    const analysis = await analyse(client, admin, await incidentOn(admin, 'checkout'));

    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expect(analysis.rootCause).toMatch(/^The change deployed to payments-api at .* \(Europe\/Paris\) by Codertocat/);
    expect(analysis.rootCause).toContain(`commit ${SHA}`);
    expect(analysis.rootCause).toMatch(/payments-api failed, then checkout failed/);
    expect(analysis.confidence).toBeGreaterThanOrEqual(0.6);
    expectInOrder(analysis.hypothesis, [
      'Deployment codehost_a-145988746',
      '"payments-api requests timing out"',
      'checkout, which calls payments-api, began failing',
      '"checkout errors above 5%"',
    ]);
    const deployedAt = analysis.evidence.find((item: { id: string }) => item.id === DEPLOY_ID).at as string;
    // Paris is UTC+1 in November.
    const paris = new Date(Date.parse(deployedAt) + 60 * MINUTE).toISOString().slice(11, 16);
    expect(analysis.hypothesis).toContain(`payments-api was deployed at ${paris} on `);
    expect(analysis.contributingFactors.join('\n')).toMatch(/checkout did not withstand the failure of payments-api/);
    expect(analysis.contributingFactors.join('\n')).not.toMatch(/Other changes/);
    expect(analysis.remediationOptions[0]).toMatch(/^Roll payments-api back .*\(owner: team payments\)\.$/);
    expect(analysis.remediationOptions[1]).toMatch(
      /^Protect checkout from payments-api .*timeouts.*circuit breaker.*\(owner: team storefront\)\.$/,
    );
    const leadership = await client.request(
      'POST',
      '/api/v1/assistant/report',
      { analysisId: analysis.analysisId, audience: 'LEADERSHIP' },
      admin.auth,
    );
    expect(leadership.body.data.content).not.toMatch(JARGON);
    expect(leadership.body.data.content).toMatch(/released to the payments-api service shortly before/);
    expect(leadership.body.data.content).toMatch(/spread to checkout, which relies on it/);
    await expectNoInstants(client, admin, analysis);
  });

  it('three hops: ledger deployed and failed, then payments-api, then checkout', async () => {
    const { admin, keyHeaders } = await workspace(
      'Three Hop Co',
      [service('checkout', 'storefront'), service('payments-api', 'payments'), service('ledger', 'books', true)],
      [
        ['checkout', 'payments-api'],
        ['payments-api', 'ledger'],
      ],
    );
    await deployHelloWorld(client, keyHeaders, 12);
    await alert(admin, 'ledger', 'ledger writes failing', 10);
    await alert(admin, 'payments-api', 'payments-api requests timing out', 8);
    await alert(admin, 'checkout', 'checkout errors above 5%', 6);
    const analysis = await analyse(client, admin, await incidentOn(admin, 'checkout'));

    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expect(analysis.rootCause).toMatch(/^The change deployed to ledger at /);
    expect(analysis.rootCause).toMatch(/ledger failed, then payments-api failed, then checkout failed/);
    expectInOrder(analysis.hypothesis, [
      'ledger was deployed at',
      '"ledger writes failing"',
      'payments-api, which calls ledger',
      'checkout, which calls payments-api',
    ]);
    // Every link weighs: three of them are less sure than two, still more than a failure nothing explains.
    expect(analysis.confidence).toBeGreaterThanOrEqual(0.5);
    expect(analysis.confidence).toBeLessThan(0.6);
    expect(analysis.remediationOptions.slice(0, 3)).toEqual([
      expect.stringMatching(/^Roll ledger back .*\(owner: team books\)\.$/),
      expect.stringMatching(/^Protect payments-api from ledger .*\(owner: team payments\)\.$/),
      expect.stringMatching(/^Protect checkout from payments-api .*\(owner: team storefront\)\.$/),
    ]);
    await expectNoInstants(client, admin, analysis);
  });

  it('a missing edge breaks the chain: the failure it can reach is the cause, with low confidence', async () => {
    const { admin, keyHeaders } = await workspace(
      'Broken Chain Co',
      [service('checkout', 'storefront'), service('payments-api', 'payments'), service('ledger', 'books', true)],
      [['checkout', 'payments-api']],
    );
    await deployHelloWorld(client, keyHeaders, 12);
    await alert(admin, 'ledger', 'ledger writes failing', 10);
    const payments = await alert(admin, 'payments-api', 'payments-api requests timing out', 8);
    await alert(admin, 'checkout', 'checkout errors above 5%', 6);
    const analysis = await analyse(client, admin, await incidentOn(admin, 'checkout'));

    expect(analysis.citations.rootCause).toEqual([`signal:${payments}`]);
    expect(analysis.rootCause).toMatch(/^A failure of payments-api, upstream of checkout: .*no change to payments-api/);
    expect(analysis.evidence.map((item: { id: string }) => item.id)).not.toContain(DEPLOY_ID);
    expect(analysis.hypothesis).not.toMatch(/ledger/);
    expectInOrder(analysis.hypothesis, ['"payments-api requests timing out"', 'checkout, which calls payments-api']);
    expect(analysis.confidence).toBeGreaterThanOrEqual(0.3);
    expect(analysis.confidence).toBeLessThan(0.5);
    expect(analysis.remediationOptions[0]).toMatch(/^Restore payments-api first; .*\(owner: team payments\)\.$/);
    await expectNoInstants(client, admin, analysis);
  });

  it('two competing chains: the better-timed one wins, and the rival lowers the confidence', async () => {
    const { admin, keyHeaders } = await workspace(
      'Competing Chains Co',
      [service('checkout', 'storefront'), service('payments-api', 'payments', true), service('inventory', 'stock')],
      [
        ['checkout', 'payments-api'],
        ['checkout', 'inventory'],
      ],
    );
    await deployWithCodeDeploy(client, keyHeaders, 'inventory', 100);
    await deployHelloWorld(client, keyHeaders, 10);
    await alert(admin, 'payments-api', 'payments-api requests timing out', 8);
    await alert(admin, 'inventory', 'inventory lookups slow', 7);
    await alert(admin, 'checkout', 'checkout errors above 5%', 6);
    const analysis = await analyse(client, admin, await incidentOn(admin, 'checkout'));

    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expectInOrder(analysis.hypothesis, [
      'payments-api was deployed at',
      '"payments-api requests timing out"',
      'checkout, which calls payments-api',
    ]);
    expect(analysis.confidence).toBeGreaterThan(0.4);
    expect(analysis.confidence).toBeLessThan(0.6);
    expect(analysis.contributingFactors.join('\n')).toMatch(
      /Other changes in the same window: Deployment aws_codedeploy-d-inventory of inventory/,
    );
    expect(analysis.contributingFactors.join('\n')).toMatch(
      /A weaker explanation competes: inventory was deployed at .*; inventory began failing .*; checkout, which calls inventory,/,
    );
    await expectNoInstants(client, admin, analysis);
  });

  it('a deploy of an upstream that raised no alert of its own explains less', async () => {
    const { admin, keyHeaders } = await workspace(
      'Silent Upstream Co',
      [service('checkout', 'storefront'), service('payments-api', 'payments', true)],
      [['checkout', 'payments-api']],
    );
    await deployHelloWorld(client, keyHeaders, 10);
    await alert(admin, 'checkout', 'checkout errors above 5%', 6);
    const analysis = await analyse(client, admin, await incidentOn(admin, 'checkout'));

    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expectInOrder(analysis.hypothesis, ['payments-api was deployed at', 'checkout, which calls payments-api']);
    expect(analysis.contributingFactors.join('\n')).toMatch(/payments-api raised no alert of its own/);
    expect(analysis.confidence).toBeLessThan(0.5);
    await expectNoInstants(client, admin, analysis);
  });
});
