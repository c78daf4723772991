import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { navigate } from '../router.ts';
import { ErrorNote, useAction } from '../ui.tsx';

/** Asks for a reset code by e-mail, then sets a new password with it; the reset mail links here with `?email=`. */
export const ResetPasswordPage = ({ email: given }: { email: string }) => {
  const [email, setEmail] = useState(given);
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  const requestCode = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await api('POST', '/auth/forgot-password', { email });
      setSent(true);
    });
  };

  const reset = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await api('POST', '/auth/reset-password', { email, otp: code.trim(), newPassword: password });
      navigate('/sign-in?reset=1', { replace: true });
    });
  };

  return (
    <main class="narrow">
      <h1>Reset your password</h1>
      <form onSubmit={requestCode} class="stack">
        <label>
          E-mail
          <input
            type="email"
            name="email"
            autocomplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class={sent ? '' : 'primary'} disabled={action.busy}>
          {sent ? 'Send another code' : 'E-mail me a code'}
        </button>
      </form>
      {(sent || given) && (
        <form onSubmit={reset} class="stack">
          {sent && <p class="info">If the address has an account, a code is on its way.</p>}
          <label>
            Code from the e-mail
            <input
              name="code"
              inputMode="numeric"
              autocomplete="one-time-code"
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </label>
          <label>
            New password
            <input
              type="password"
              name="new-password"
              autocomplete="new-password"
              minLength={8}
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          <button type="submit" class="primary" disabled={action.busy}>
            Set the new password
          </button>
        </form>
      )}
      <ErrorNote error={action.error} />
    </main>
  );
};
