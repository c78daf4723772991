import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redactPath } from '#lib/log/redact-path.ts';
import { signAckLink } from '#lib/notifications/ack-token.ts';
import { signConfirmation } from '#lib/workspaces/outside-address-token.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { createIncident } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

let client: TestClient;
let admin: SignedIn;

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client, { businessName: 'Quiet logs' });
});

afterAll(async () => {
  await client?.stack.stop();
});

/** Everything the service writes to stdout and stderr while `run` runs, with the info level on. */
const capturedLog = async (run: () => Promise<void>): Promise<string> => {
  const previous = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'info';
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await run();
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    process.env.LOG_LEVEL = previous;
  }
  return lines.join('');
};

describe('no secret in the log', () => {
  it('the tokens of acknowledge links, invite and reset links and apiKey= never reach the log', async () => {
    const incident = await createIncident(client, admin.auth);
    const ackToken = await signAckLink(client.stack.ports.signingKeys, {
      linkId: 'log-link',
      workspaceId: admin.user.businessId as string,
      incidentId: incident.id,
      by: admin.email,
      userId: admin.user.id,
      channel: 'email',
      recipient: admin.email,
      event: 'OPENED',
      eventAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const secrets = ['invite-secret-0123456789', 'reset-secret-0123456789', 'key-secret-0123456789'];
    const output = await capturedLog(async () => {
      expect((await client.request('GET', `/api/v1/ack/${ackToken}`)).status).toBe(200);
      expect((await client.request('POST', `/api/v1/ack/${ackToken}`)).status).toBe(200);
      // Route misses and query strings: each goes through the route-miss answer or the request log.
      await client.request('GET', `/api/v1/ack/${ackToken}/extra`);
      await client.request('GET', `/api/v1/accept-invite?token=${secrets[0]}`);
      await client.request('GET', `/api/v1/reset/${secrets[1]}`);
      await client.request('GET', `/api/v1/incident-ticket?apiKey=${secrets[2]}`, undefined, admin.auth);
    });
    expect(output).toContain('request completed');
    expect(output).toContain('[redacted]');
    for (const secret of [ackToken, ...secrets]) expect(output).not.toContain(secret);
  });

  it('keeps what is not a secret', () => {
    expect(redactPath('/api/v1/incident-ticket/INC-7')).toBe('/api/v1/incident-ticket/INC-7');
    expect(redactPath('/api/v1/ack/abc.def.ghi?x=1&api_key=k&token=t')).toBe(
      '/api/v1/ack/[redacted]?x=1&api_key=[redacted]&token=[redacted]',
    );
  });

  it("redacts an outside address's confirmation token", async () => {
    const token = await signConfirmation(client.stack.ports.signingKeys, {
      workspaceId: 'ws-1',
      address: 'partner@outside.example',
      expiresAt: '2026-12-01T00:00:00.000Z',
    });
    expect(redactPath(`/api/v1/business/outside-addresses/confirm/${token}`)).toBe(
      '/api/v1/business/outside-addresses/confirm/[redacted]',
    );
    expect(redactPath('/api/v1/business/outside-addresses')).toBe('/api/v1/business/outside-addresses');
  });
});
