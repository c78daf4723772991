import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { currentUser, onSessionChange, signOut, type User } from './api.ts';
import { AcceptInvitePage } from './pages/accept-invite.tsx';
import { IncidentPage } from './pages/incident.tsx';
import { IncidentsPage } from './pages/incidents.tsx';
import { IntegrationKeysPage } from './pages/integration-keys.tsx';
import { OnCallPage } from './pages/on-call.tsx';
import { ResetPasswordPage } from './pages/reset-password.tsx';
import { SignalsPage } from './pages/signals.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { LinkChatPage } from './pages/link-chat.tsx';
import { WatchersPage } from './pages/watchers.tsx';
import { PushToggle } from './push-toggle.tsx';
import { navigate, returnPath, useLocation } from './router.ts';
import { Link, useLoad } from './ui.tsx';
import { loadWorkspace } from './workspace.ts';

const Header = ({ user, path }: { user: User; path: string }) => (
  <header class="top">
    <nav aria-label="Console">
      <Link to="/incidents" class={path.startsWith('/incidents') ? 'current' : ''}>
        Incidents
      </Link>
      <Link to="/signals" class={path.startsWith('/signals') ? 'current' : ''}>
        Signals
      </Link>
      <Link to="/on-call" class={path.startsWith('/on-call') ? 'current' : ''}>
        On call
      </Link>
      <Link to="/heartbeats" class={path.startsWith('/heartbeats') ? 'current' : ''}>
        Heartbeats
      </Link>
      {user.roles.includes('ADMIN') && (
        <Link to="/integration-keys" class={path.startsWith('/integration-keys') ? 'current' : ''}>
          Keys
        </Link>
      )}
    </nav>
    <span class="who">
      <span class="who-email">{user.email}</span> <span class="badge">{user.roles.join(', ')}</span>{' '}
      <button type="button" class="link" onClick={() => void signOut()}>
        Sign out
      </button>
    </span>
    <PushToggle />
  </header>
);

const App = () => {
  const { path, query } = useLocation();
  const [user, setUser] = useState(currentUser);
  useEffect(() => onSessionChange(() => setUser(currentUser())), []);
  // Pages wait for the workspace's zone, so every time on them is on its clock from the first render.
  const workspace = useLoad(async () => (user ? await loadWorkspace() : undefined), user?.id ?? '');

  if (path === '/accept-invite') return <AcceptInvitePage token={query.get('token') ?? ''} />;
  if (path === '/reset-password') return <ResetPasswordPage email={query.get('email') ?? ''} />;
  if (!user || path === '/sign-in') {
    // A link opened without a session comes back to the same page once signed in.
    const next = path === '/sign-in' ? (query.get('next') ?? '/incidents') : returnPath();
    return (
      <SignInPage
        key={next}
        next={next}
        {...(query.has('reset') && { notice: 'Your password is set: sign in with it.' })}
      />
    );
  }
  if (workspace.loading && !workspace.value) return <p class="loading">Loading…</p>;
  const incident = /^\/incidents\/([^/]+)$/.exec(path);
  return (
    <>
      <Header user={user} path={path} />
      {incident?.[1] ? (
        <IncidentPage key={incident[1]} id={decodeURIComponent(incident[1])} user={user} />
      ) : path === '/signals' ? (
        <SignalsPage params={query} user={user} />
      ) : path === '/on-call' ? (
        <OnCallPage />
      ) : path === '/heartbeats' ? (
        <WatchersPage />
      ) : path === '/integration-keys' ? (
        <IntegrationKeysPage />
      ) : path === '/link-chat' ? (
        <LinkChatPage user={user} chatUserId={query.get('user') ?? ''} token={query.get('token') ?? ''} />
      ) : path === '/incidents' ? (
        <IncidentsPage params={query} />
      ) : (
        <Redirect to="/incidents" />
      )}
    </>
  );
};

const Redirect = ({ to }: { to: string }) => {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
};

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
