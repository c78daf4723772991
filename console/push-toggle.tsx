import { useEffect, useState } from 'preact/hooks';
import { api } from './api.ts';

/** The subscription's id the service answered, so turning push off names it (per browser). */
const SUBSCRIPTION_KEY = 'incident-console.push-subscription';

const supported = (): boolean => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const registration = (): Promise<ServiceWorkerRegistration> =>
  navigator.serviceWorker.register('service-worker.js', { scope: './' });

/**
 * Turns push notifications on or off for this browser (docs/console.md, "Push notifications"): asks for the
 * permission, subscribes with the deployment's VAPID key and hands the subscription to the service. On iOS this
 * works only in the console added to the home screen (iOS 16.4+), which the words say where it is missing.
 */
export const PushToggle = () => {
  const [on, setOn] = useState<boolean | undefined>(undefined);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    if (!supported()) return;
    void registration()
      .then((found) => found.pushManager.getSubscription())
      .then((subscription) => setOn(!!subscription && !!localStorage.getItem(SUBSCRIPTION_KEY)));
  }, []);
  if (!supported()) {
    return (
      <p class="muted">
        Push notifications need a browser that supports them; on an iPhone or iPad, add the console to the home screen
        (iOS 16.4 or later) and open it from there.
      </p>
    );
  }
  const turnOn = async () => {
    setProblem('');
    if ((await Notification.requestPermission()) !== 'granted') {
      setProblem('Notifications are blocked for this site: allow them in the browser settings.');
      return;
    }
    const { data: key } = await api<{ publicKey: string }>('GET', '/push/vapid-public-key');
    const subscription = await (await registration()).pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: Uint8Array.from(atob(key.publicKey.replace(/-/g, '+').replace(/_/g, '/')), (char) =>
        char.charCodeAt(0),
      ),
    });
    const { data: saved } = await api<{ id: string }>('POST', '/push/subscriptions', subscription.toJSON());
    localStorage.setItem(SUBSCRIPTION_KEY, saved.id);
    setOn(true);
  };
  const turnOff = async () => {
    const subscription = await (await registration()).pushManager.getSubscription();
    const id = localStorage.getItem(SUBSCRIPTION_KEY);
    if (id) await api('DELETE', `/push/subscriptions/${id}`);
    await subscription?.unsubscribe();
    localStorage.removeItem(SUBSCRIPTION_KEY);
    setOn(false);
  };
  return (
    <div class="push-toggle">
      <button
        type="button"
        class="secondary"
        disabled={on === undefined}
        onClick={() => void (on ? turnOff() : turnOn()).catch((error: Error) => setProblem(error.message))}
      >
        {on ? 'Turn push notifications off' : 'Turn push notifications on'}
      </button>
      {problem && <p class="problem">{problem}</p>}
    </div>
  );
};
