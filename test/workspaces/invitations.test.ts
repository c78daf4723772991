import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPorts } from '#lib/ports/port-set.ts';
import { login, signUpBusiness, uniqueEmail, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { PASSWORD, invite, joinByInvitation } from './support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

let client: TestClient;
let admin: SignedIn;
let workspaceId: string;

const decode = (token: unknown) => client.request('POST', '/api/v1/business/decode-invite', { token });
const accept = (body: Record<string, unknown>) => client.request('POST', '/api/v1/business/accept-invite', body);
const newPerson = (token: string) => ({ token, password: PASSWORD, firstName: 'Grace', lastName: 'Hopper' });
const members = async (who: SignedIn) => {
  const reply = await client.request('GET', '/api/v1/business/get_members', undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as { id: string; email: string; role: string; level: string | null; status: string }[];
};

/** Runs `body` with the runtime's clock moved `offsetMs` ahead, then puts the real runtime back. */
const later = async (offsetMs: number, body: () => Promise<void>): Promise<void> => {
  const runtime = client.stack.ports;
  installPorts({ ...runtime, clock: { now: () => new Date(Date.now() + offsetMs) } });
  try {
    await body();
  } finally {
    installPorts(runtime);
  }
};

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client, { businessName: 'Acme Ops' });
  workspaceId = admin.user.businessId as string;
});

afterAll(async () => {
  installPorts(client.stack.ports);
  await client.stack.stop();
});

describe('POST /business/send-invite', () => {
  it('answers 201 with the invitation and mails the token, storing only its hash', async () => {
    const email = uniqueEmail('invitee');
    const sent = await client.request(
      'POST',
      '/api/v1/business/send-invite',
      { email, role: 'ENGINEER', accessPermissions: ['incidents', 'playbooks'], level: 'SENIOR' },
      admin.auth,
    );
    expect(sent.status, sent.text).toBe(201);
    const { inviteId, expiresAt } = sent.body.data;
    expect(sent.body.data).toEqual({ inviteId: expect.any(String), email, expiresAt: expect.any(String) });
    expect(Math.abs(Date.parse(expiresAt) - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);

    const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
    const [message] = mail.body.data as { subject: string; text: string; token: string }[];
    expect(message?.subject).toContain('Acme Ops');
    const token = message?.token as string;
    expect(token.split('.').slice(0, 2)).toEqual([workspaceId, inviteId]);
    expect(message?.text).toContain(`accept-invite?token=${encodeURIComponent(token)}`);
    expect(message?.text).toMatch(/expires at \d\d:\d\d on \d+ \w+ \d{4} \(UTC\)\./);
    expect(message?.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);

    const { Item } = await client.stack.ports.table.doc.send(
      new GetCommand({
        TableName: client.stack.ports.table.name,
        Key: { pk: `WS#${workspaceId}#INVITE`, sk: inviteId },
      }),
    );
    expect(Item?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(Item)).not.toContain(token.split('.')[2]);
  });

  it('answers 400 with a message per bad field', async () => {
    const missing = await client.request('POST', '/api/v1/business/send-invite', {}, admin.auth);
    expect(missing.status).toBe(400);
    const fields = missing.body.errors.map((error: string) => error.split(':')[0]);
    expect(fields.sort()).toEqual(['accessPermissions', 'email', 'role']);
    const wrong = await client.request(
      'POST',
      '/api/v1/business/send-invite',
      { email: 'not-an-address', role: 'OWNER', accessPermissions: 'all' },
      admin.auth,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toHaveLength(3);
  });

  it('answers 401 without a Bearer token', async () => {
    const reply = await client.request('POST', '/api/v1/business/send-invite', {
      email: uniqueEmail(),
      role: 'VIEWER',
      accessPermissions: [],
    });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ success: false, errors: expect.any(Array) });
  });

  it('answers 409 for a current member', async () => {
    const self = await client.request(
      'POST',
      '/api/v1/business/send-invite',
      { email: admin.email.toUpperCase(), role: 'VIEWER', accessPermissions: [] },
      admin.auth,
    );
    expect(self.status).toBe(409);
    const engineer = await joinByInvitation(client, admin, 'ENGINEER');
    const again = await client.request(
      'POST',
      '/api/v1/business/send-invite',
      { email: engineer.email, role: 'VIEWER', accessPermissions: [] },
      admin.auth,
    );
    expect(again.status).toBe(409);
  });
});

describe('POST /business/decode-invite', () => {
  it('shows the invited address, role, business and expiry', async () => {
    const email = uniqueEmail('decode');
    const token = await invite(client, admin, email, 'VIEWER');
    const reply = await decode(token);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual({ email, role: 'VIEWER', businessName: 'Acme Ops', expiresAt: expect.any(String) });
  });

  it('answers 404 for unknown, malformed and tampered tokens, and 400 without one', async () => {
    const token = await invite(client, admin, uniqueEmail('tamper'));
    const [, inviteId, secret] = token.split('.');
    const wrongSecret = `${workspaceId}.${inviteId}.${'A'.repeat(43)}`;
    const unknownInvite = `${workspaceId}.01ARZ3NDEKTSV4RRFFQ69G5FAV.${secret}`;
    for (const bad of ['garbage', 'a.b', wrongSecret, unknownInvite]) {
      expect((await decode(bad)).status, bad).toBe(404);
    }
    expect((await decode(undefined)).status).toBe(400);
    expect((await decode('')).status).toBe(400);
  });
});

describe('POST /business/accept-invite', () => {
  it('creates a verified BUSINESS account with the role and a member; the token is then used (409)', async () => {
    const email = uniqueEmail('new');
    const token = await invite(client, admin, email, 'ENGINEER');
    const reply = await accept(newPerson(token));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual({
      user: expect.objectContaining({
        email,
        firstName: 'Grace',
        lastName: 'Hopper',
        isVerified: true,
        accountType: 'BUSINESS',
        businessId: workspaceId,
        roles: ['ENGINEER'],
      }),
      businessId: workspaceId,
      role: 'ENGINEER',
    });
    expect(reply.body.data.user).not.toHaveProperty('passwordHash');

    const signedIn = await login(client, email, PASSWORD);
    expect(signedIn.user).toMatchObject({ businessId: workspaceId, roles: ['ENGINEER'] });
    expect(await members(admin)).toContainEqual({
      id: reply.body.data.user.id,
      email,
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'ENGINEER',
      level: 'SENIOR',
      accessPermissions: ['incidents'],
      status: 'ACTIVE',
    });

    expect((await decode(token)).status).toBe(409);
    expect((await accept(newPerson(token))).status).toBe(409);
  });

  it('answers 400 naming each missing field when the address has no account, and creates nothing', async () => {
    const email = uniqueEmail('fields');
    const token = await invite(client, admin, email);
    const reply = await accept({ token, firstName: 'Grace' });
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual(['lastName', 'password']);
    const short = await accept({ ...newPerson(token), password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.errors[0]).toMatch(/^password:/);
    expect((await accept(newPerson(token))).status).toBe(200);
  });

  it('answers 409 for an account that belongs to another workspace', async () => {
    const other = await signUpBusiness(client, { businessName: 'Other Co' });
    const token = await invite(client, admin, other.email);
    expect((await decode(token)).status).toBe(200);
    const reply = await accept({ token });
    expect(reply.status).toBe(409);
    expect((await members(admin)).map((member) => member.email)).not.toContain(other.email);
  });

  it('re-sending replaces the earlier invitation: the old token is 404, the new one works', async () => {
    const email = uniqueEmail('resend');
    const first = await invite(client, admin, email, 'VIEWER');
    const second = await invite(client, admin, email, 'ENGINEER');
    expect(second).not.toBe(first);
    expect((await decode(first)).status).toBe(404);
    expect((await accept(newPerson(first))).status).toBe(404);
    const decoded = await decode(second);
    expect(decoded.status).toBe(200);
    expect(decoded.body.data.role).toBe('ENGINEER');
    expect((await accept(newPerson(second))).body.data.role).toBe('ENGINEER');
  });

  it('answers 400 for an expired invitation (7 days), and the address may be invited again', async () => {
    const email = uniqueEmail('expired');
    const token = await invite(client, admin, email);
    await later(7 * DAY_MS - 60_000, async () => {
      expect((await decode(token)).status).toBe(200);
    });
    await later(7 * DAY_MS + 60_000, async () => {
      const decoded = await decode(token);
      expect(decoded.status).toBe(400);
      expect(decoded.body.message).toMatch(/expired/);
      expect((await accept(newPerson(token))).status).toBe(400);
    });
    const fresh = await invite(client, admin, email);
    expect((await accept(newPerson(fresh))).status).toBe(200);
  });

  it('completes on a retry after a crash before the invitation was marked accepted', async () => {
    const email = uniqueEmail('crash');
    const token = await invite(client, admin, email, 'VIEWER');
    const runtime = client.stack.ports;
    const crashing = {
      send: (command: unknown) => {
        if (command instanceof UpdateCommand && command.input.UpdateExpression?.includes('acceptedAt')) {
          return Promise.reject(new Error('simulated crash'));
        }
        return runtime.table.doc.send(command as GetCommand);
      },
    } as unknown as DynamoDBDocumentClient;
    installPorts({ ...runtime, table: { ...runtime.table, doc: crashing } });
    try {
      expect((await accept(newPerson(token))).status).toBe(500);
    } finally {
      installPorts(runtime);
    }
    const retry = await accept(newPerson(token));
    expect(retry.status, retry.text).toBe(200);
    expect((await members(admin)).filter((member) => member.email === email)).toHaveLength(1);
    expect((await accept(newPerson(token))).status).toBe(409);
    await login(client, email, PASSWORD);
  });

  it('does not let a token of one workspace be replayed under another workspace id', async () => {
    const other = await signUpBusiness(client, { businessName: 'Replay Target' });
    const token = await invite(client, admin, uniqueEmail('replay'));
    const replayed = token.replace(`${workspaceId}.`, `${other.user.businessId}.`);
    expect((await decode(replayed)).status).toBe(404);
    expect((await accept(newPerson(replayed))).status).toBe(404);
  });
});
