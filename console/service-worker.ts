/**
 * The console's service worker (docs/console.md, "Push notifications"): shows each page a push brings, and
 * answers its actions. "Acknowledge" POSTs the member's one-click acknowledge link the push carried, so it works
 * without opening the console (iOS, a locked phone); "Open" (or a tap on the notification) opens the incident.
 * Written against the few worker types it uses: the console's tsconfig has the DOM's, not the worker's.
 */

import type { PushPayload } from '#lib/push/push-payload.ts';

interface NotificationLike {
  data: PushPayload;
  close(): void;
}

interface WorkerEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}

interface PushEventLike extends WorkerEvent {
  data: { json(): unknown } | null;
}

interface NotificationEventLike extends WorkerEvent {
  action: string;
  notification: NotificationLike;
}

interface WorkerScope {
  registration: {
    showNotification(title: string, options: Record<string, unknown>): Promise<void>;
  };
  clients: {
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEventLike) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: WorkerEvent) => void): void;
}

const worker = self as unknown as WorkerScope;

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener('push', (event) => {
  const page = event.data?.json() as PushPayload | undefined;
  if (!page) return;
  event.waitUntil(
    worker.registration.showNotification(page.title, {
      body: page.body,
      tag: page.tag,
      // A page is meant to wake someone: it stays until answered, and a newer page of the incident rings again.
      requireInteraction: true,
      renotify: true,
      data: page,
      actions: page.actions,
    }),
  );
});

/** Acknowledges through the link; on any failure (used already, expired) the incident opens instead. */
const acknowledge = async (page: PushPayload): Promise<void> => {
  try {
    const answer = await fetch(page.ackUrl ?? '', { method: 'POST', credentials: 'omit' });
    if (answer.ok) {
      await worker.registration.showNotification(`Acknowledged: ${page.incidentId}`, {
        body: page.title,
        tag: page.tag,
        data: page,
        actions: [{ action: 'open', title: 'Open' }],
      });
      return;
    }
  } catch {
    // No network: the console shows where the incident stands.
  }
  await worker.clients.openWindow(page.url);
};

worker.addEventListener('notificationclick', (event) => {
  const page = event.notification.data;
  event.notification.close();
  event.waitUntil(
    event.action === 'acknowledge' && page.ackUrl ? acknowledge(page) : worker.clients.openWindow(page.url),
  );
});
