import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ApiForm, CodeField, EmailField, NewPasswordField } from '../form.tsx';
import { navigate } from '../router.ts';
import { useAction } from '../ui.tsx';

/** Asks for a reset code by e-mail, then sets a new password with it; the reset mail links here with `?email=`. */
export const ResetPasswordPage = ({ email: given }: { email: string }) => {
  const [email, setEmail] = useState(given);
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const asking = useAction();
  const resetting = useAction();

  const requestCode = () =>
    void asking.run(async () => {
      await api('POST', '/auth/forgot-password', { email });
      setSent(true);
    });

  const reset = () =>
    void resetting.run(async () => {
      await api('POST', '/auth/reset-password', { email, otp: code.trim(), newPassword: password });
      navigate('/sign-in?reset=1', { replace: true });
    });

  const busy = asking.busy || resetting.busy;
  return (
    <main class="narrow">
      <h1>Reset your password</h1>
      <ApiForm
        error={asking.error}
        onSubmit={requestCode}
        actions={
          <button type="submit" class={sent ? '' : 'primary'} disabled={busy}>
            {sent ? 'Send another code' : 'E-mail me a code'}
          </button>
        }
      >
        <EmailField value={email} onValue={setEmail} />
      </ApiForm>
      {(sent || given) && (
        <ApiForm
          error={resetting.error}
          onSubmit={reset}
          actions={
            <button type="submit" class="primary" disabled={busy}>
              Set the new password
            </button>
          }
        >
          {sent && <p class="info">If the address has an account, a code is on its way.</p>}
          <CodeField value={code} onValue={setCode} />
          <NewPasswordField label="New password" name="newPassword" value={password} onValue={setPassword} />
        </ApiForm>
      )}
    </main>
  );
};
