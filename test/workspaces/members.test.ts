import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceItemKey } from '#lib/workspaces/workspace-repository.ts';
import { login, signUpBusiness, uniqueEmail, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { PASSWORD, invite, joinByInvitation } from './support.ts';

let client: TestClient;

const memberPath = (member: SignedIn) => `/api/v1/business/members/${member.user.id}`;
const changeRole = (by: SignedIn, member: SignedIn, role: unknown) =>
  client.request('PATCH', memberPath(member), { role }, by.auth);
const remove = (by: SignedIn, member: SignedIn) => client.request('DELETE', memberPath(member), undefined, by.auth);
const members = async (who: SignedIn) =>
  (await client.request('GET', '/api/v1/business/get_members', undefined, who.auth)).body.data as {
    id: string;
    role: string;
  }[];
const sendInvite = (who: SignedIn) =>
  client.request(
    'POST',
    '/api/v1/business/send-invite',
    { email: uniqueEmail('x'), role: 'VIEWER', accessPermissions: [] },
    who.auth,
  );

beforeAll(async () => {
  client = await startTestStack();
});

afterAll(async () => {
  await client.stack.stop();
});

describe('PATCH /business/members/:userId', () => {
  it("changes the role; the member's next request, with the same token, has the new role", async () => {
    const admin = await signUpBusiness(client);
    const engineer = await joinByInvitation(client, admin, 'ENGINEER');
    expect((await sendInvite(engineer)).status).toBe(403);

    const promoted = await changeRole(admin, engineer, 'ADMIN');
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body.data).toMatchObject({
      id: engineer.user.id,
      email: engineer.email,
      role: 'ADMIN',
      status: 'ACTIVE',
    });
    expect((await sendInvite(engineer)).status).toBe(201);

    expect((await changeRole(admin, engineer, 'VIEWER')).status).toBe(200);
    expect((await sendInvite(engineer)).status).toBe(403);
    expect(await members(admin)).toContainEqual(expect.objectContaining({ id: engineer.user.id, role: 'VIEWER' }));
    expect((await login(client, engineer.email, engineer.password)).user.roles).toEqual(['VIEWER']);
  });

  it('refuses to demote the last ADMIN (409), and allows it once another member is ADMIN', async () => {
    const admin = await signUpBusiness(client);
    const last = await changeRole(admin, admin, 'ENGINEER');
    expect(last.status).toBe(409);
    expect(last.body.errors).toEqual([expect.stringMatching(/^userId: .*last ADMIN/)]);
    expect((await sendInvite(admin)).status, 'still ADMIN').toBe(201);

    const second = await joinByInvitation(client, admin, 'ADMIN');
    expect((await changeRole(second, admin, 'ENGINEER')).status).toBe(200);
    expect((await changeRole(second, second, 'VIEWER')).status).toBe(409);
  });

  it('keeps an ADMIN when two ADMINs demote each other at the same time', async () => {
    const admin = await signUpBusiness(client);
    const second = await joinByInvitation(client, admin, 'ADMIN');
    const replies = await Promise.all([changeRole(admin, second, 'VIEWER'), changeRole(second, admin, 'VIEWER')]);
    // The loser is 409 (last ADMIN), or 403 when the winner finished before it was authorized.
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, expect.toBeOneOf([403, 409])]);
    const roles = (await members(replies[0]!.status === 200 ? admin : second)).map((member) => member.role);
    expect(roles.sort()).toEqual(['ADMIN', 'VIEWER']);
  });

  it('counts the ADMINs of a workspace made before they were kept on the workspace item', async () => {
    const admin = await signUpBusiness(client);
    const second = await joinByInvitation(client, admin, 'ADMIN');
    const { table } = client.stack.ports;
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: workspaceItemKey(admin.user.businessId!),
        UpdateExpression: 'REMOVE adminIds',
      }),
    );
    expect((await changeRole(admin, second, 'ENGINEER')).status).toBe(200);
    expect((await changeRole(admin, admin, 'ENGINEER')).status).toBe(409);
  });

  it('answers 404 for an unknown id and a member of another workspace, 400 for a bad role, 403 below ADMIN', async () => {
    const admin = await signUpBusiness(client);
    const other = await signUpBusiness(client, { businessName: 'Other Co' });
    const viewer = await joinByInvitation(client, admin, 'VIEWER');
    const unknown = await client.request(
      'PATCH',
      '/api/v1/business/members/no-such-user',
      { role: 'VIEWER' },
      admin.auth,
    );
    expect(unknown.status).toBe(404);
    expect((await changeRole(admin, other, 'VIEWER')).status).toBe(404);
    expect((await changeRole(other, viewer, 'ADMIN')).status).toBe(404);
    const bad = await changeRole(admin, viewer, 'OWNER');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.stringMatching(/^role: /)]);
    expect((await changeRole(viewer, viewer, 'ADMIN')).status).toBe(403);
    expect((await sendInvite(other)).status, 'the other workspace is untouched').toBe(201);
  });
});

describe('DELETE /business/members/:userId', () => {
  it("ends the member's access at once and leaves a workspace-less account that can start over", async () => {
    const admin = await signUpBusiness(client);
    const engineer = await joinByInvitation(client, admin, 'ENGINEER');
    expect((await client.request('GET', '/api/v1/business/get_members', undefined, engineer.auth)).status).toBe(200);

    const reply = await remove(admin, engineer);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual({ id: engineer.user.id });

    const stale = await client.request('GET', '/api/v1/business/get_members', undefined, engineer.auth);
    expect(stale.status).toBe(403);
    expect((await members(admin)).map((member) => member.id)).not.toContain(engineer.user.id);
    const again = await login(client, engineer.email, engineer.password);
    expect(again.user).toMatchObject({ businessId: null, roles: [] });
    expect((await remove(admin, engineer)).status).toBe(404);

    const token = await invite(client, admin, engineer.email, 'VIEWER');
    const rejoined = await client.request('POST', '/api/v1/business/accept-invite', { token, password: PASSWORD });
    expect(rejoined.status, rejoined.text).toBe(200);
    expect(rejoined.body.data.user).toMatchObject({ id: engineer.user.id, roles: ['VIEWER'] });
  });

  it('lets a removed member set up a workspace of their own', async () => {
    const admin = await signUpBusiness(client);
    const viewer = await joinByInvitation(client, admin, 'VIEWER');
    expect((await remove(admin, viewer)).status).toBe(200);
    const setup = await client.request('PUT', '/api/v1/business/setup', { businessName: 'Fresh Start' }, viewer.auth);
    expect(setup.status, setup.text).toBe(201);
    expect(setup.body.data.user).toMatchObject({ roles: ['ADMIN'] });
  });

  it('refuses to remove the last ADMIN (409); an ADMIN may remove another ADMIN', async () => {
    const admin = await signUpBusiness(client);
    expect((await remove(admin, admin)).status).toBe(409);
    const second = await joinByInvitation(client, admin, 'ADMIN');
    expect((await remove(second, admin)).status).toBe(200);
    expect((await remove(second, second)).status).toBe(409);
    expect((await sendInvite(second)).status).toBe(201);
  });

  it('is ADMIN-only (403) and needs a Bearer token (401)', async () => {
    const admin = await signUpBusiness(client);
    const engineer = await joinByInvitation(client, admin, 'ENGINEER');
    expect((await remove(engineer, admin)).status).toBe(403);
    expect((await client.request('DELETE', memberPath(engineer))).status).toBe(401);
    expect((await members(admin)).map((member) => member.id)).toContain(engineer.user.id);
  });
});
