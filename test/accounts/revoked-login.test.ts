import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REFRESH_GRACE_SECONDS } from '#lib/accounts/sessions.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { login, signUpBusiness } from '../support/accounts.ts';
import { startTestStack } from '../support/local-stack.ts';

/** Issue 27, finding 6: a login revoked for refresh-token reuse takes its access tokens with it. */
const client = await startTestStack();
afterAll(() => client.stack.stop());
afterEach(() => installPorts(client.stack.ports));

const membersStatus = async (accessToken: string) =>
  (await client.request('GET', '/api/v1/business/get_members', undefined, { authorization: `Bearer ${accessToken}` }))
    .status;
const refresh = (refreshToken: string) => client.request('POST', '/api/v1/auth/refresh-token', { refreshToken });

describe('a login revoked for refresh-token reuse', () => {
  it("ends that login's access tokens at once; the account's other logins keep working", async () => {
    const admin = await signUpBusiness(client);
    const other = await login(client, admin.email, admin.password);
    const rotated = await refresh(admin.refreshToken);
    expect(rotated.status).toBe(200);
    const newer = rotated.body.data.accessToken as string;
    expect(await membersStatus(newer)).toBe(200);

    const clock: Clock = { now: () => new Date(Date.now() + (REFRESH_GRACE_SECONDS + 2) * 1000) };
    installPorts({ ...client.stack.ports, clock });
    expect((await refresh(admin.refreshToken)).status).toBe(401);

    expect(await membersStatus(newer)).toBe(401);
    expect(await membersStatus(admin.accessToken)).toBe(401);
    expect(await membersStatus(other.accessToken)).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });
});
