import { expect } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from './accounts.ts';
import type { TestClient } from './local-stack.ts';
import { onCallFromNow } from './on-call.ts';
import { confirmOutsideAddress } from './outside-addresses.ts';

export interface Team {
  admin: SignedIn;
  onCall: SignedIn;
  alertEmail: string;
  ingest: Record<string, string>;
}

/**
 * The team most paging tests start from: a workspace on Berlin's clock (`ims` overrides it and sets the rest of the
 * IMS setup), its alert address confirmed, an ENGINEER on call from now on, and a key that ingests.
 */
export const team = async (client: TestClient, name: string, ims: Record<string, unknown> = {}): Promise<Team> => {
  const admin = await signUpBusiness(client, { businessName: name });
  const alertEmail = `alerts-${name.toLowerCase()}@example.com`;
  const setup = await client.request(
    'POST',
    '/api/v1/ims/setup',
    { alertEmail, timezone: 'Europe/Berlin', ...ims },
    admin.auth,
  );
  expect(setup.status, setup.text).toBe(201);
  // The alert address is outside the members: it confirms, as its owner would, before it is paged.
  await confirmOutsideAddress(client, alertEmail);
  const onCall = await joinAs(client, admin, 'ENGINEER');
  await onCallFromNow(client, admin, onCall.user.id);
  return { admin, onCall, alertEmail, ingest: await apiKeyHeaders(client, admin, ['ingestion:write']) };
};
