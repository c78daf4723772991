import { useState } from 'preact/hooks';
import type * as z from 'zod/mini';
import type { decodedInviteData } from '#lib/workspaces/schemas.ts';
import { api, signIn } from '../api.ts';
import { ApiForm, Field, NewPasswordField } from '../form.tsx';
import { navigate } from '../router.ts';
import { ErrorNote, useAction, useLoad } from '../ui.tsx';

type DecodedInvite = z.output<typeof decodedInviteData>;

/**
 * The invitation e-mail's link (`/accept-invite?token=`): shows the workspace and role, takes a name and a
 * password (or the existing account's password), accepts and signs in.
 */
export const AcceptInvitePage = ({ token }: { token: string }) => {
  const invite = useLoad(
    async () => (await api<DecodedInvite>('POST', '/business/decode-invite', { token })).data,
    token,
  );
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  if (!token) return <main class="narrow">This invitation link has no token.</main>;
  if (invite.error) return <main class="narrow">{<ErrorNote error={invite.error} />}</main>;
  if (!invite.value) return <main class="narrow">Checking the invitation…</main>;
  const { email, role, businessName } = invite.value;

  const accept = () =>
    void action.run(async () => {
      await api('POST', '/business/accept-invite', {
        token,
        password,
        ...(firstName && { firstName }),
        ...(lastName && { lastName }),
      });
      await signIn(email, password);
      navigate('/incidents', { replace: true });
    });

  return (
    <main class="narrow">
      <h1>Join {businessName}</h1>
      <p>
        {email} is invited as <strong>{role}</strong>. If the address already has an account, enter its password.
      </p>
      <ApiForm
        error={action.error}
        onSubmit={accept}
        actions={
          <button type="submit" class="primary" disabled={action.busy}>
            Accept and sign in
          </button>
        }
      >
        <Field label="First name" name="firstName" value={firstName} onValue={setFirstName} />
        <Field label="Last name" name="lastName" value={lastName} onValue={setLastName} />
        <NewPasswordField label="Password" name="password" value={password} onValue={setPassword} />
      </ApiForm>
    </main>
  );
};
