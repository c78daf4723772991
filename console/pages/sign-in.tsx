import { useState } from 'preact/hooks';
import { api, ApiError, signIn } from '../api.ts';
import { ApiForm, CodeField, EmailField, Field } from '../form.tsx';
import { navigate } from '../router.ts';
import { Link, useAction } from '../ui.tsx';
import { rememberedWorkspaceName } from '../workspace.ts';

/** 403 from login: the address still awaits its e-mailed code (lib/accounts/sign-in.ts). */
const awaitsCode = (error: unknown): boolean => error instanceof ApiError && error.status === 403;

/**
 * E-mail and password; on a first sign-in of an unverified address, the code the registration mailed
 * (or a new one) verifies it, and the sign-in goes on. The page names the product, and the workspace this
 * browser last signed in to (docs/decisions.md, "The sign-in page names the workspace"): a mailed link
 * carries no workspace, and no public route says whose an incident is.
 */
export const SignInPage = ({ next, notice }: { next: string; notice?: string }) => {
  const [workspace] = useState(rememberedWorkspaceName);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [info, setInfo] = useState(notice ?? '');
  const action = useAction();

  const finish = async () => {
    await signIn(email, password);
    navigate(next.startsWith('/sign-in') ? '/incidents' : next, { replace: true });
  };

  const submit = () =>
    void action.run(async () => {
      if (needsCode) await api('POST', '/auth/verify_email', { email, otp: code.trim(), password });
      try {
        await finish();
      } catch (error) {
        if (!awaitsCode(error)) throw error;
        setNeedsCode(true);
        setInfo('Enter the code we e-mailed to you to verify your address.');
      }
    });

  const resend = () =>
    void action.run(async () => {
      await api('POST', '/auth/resend_otp', { email });
      setInfo('A new code is on its way.');
    });

  return (
    <main class="narrow">
      <p class="product">Incident console</p>
      <h1>{workspace ? `Sign in to ${workspace}` : 'Sign in'}</h1>
      {info && <p class="info">{info}</p>}
      <ApiForm
        error={action.error}
        onSubmit={submit}
        actions={
          <>
            <button type="submit" class="primary" disabled={action.busy}>
              {needsCode ? 'Verify and sign in' : 'Sign in'}
            </button>
            {needsCode && (
              <button type="button" onClick={resend} disabled={action.busy}>
                Send a new code
              </button>
            )}
          </>
        }
      >
        <EmailField value={email} onValue={setEmail} />
        <Field
          label="Password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        {needsCode && <CodeField value={code} onValue={setCode} />}
      </ApiForm>
      <p>
        <Link to={`/reset-password${email ? `?email=${encodeURIComponent(email)}` : ''}`}>Forgot your password?</Link>
      </p>
    </main>
  );
};
