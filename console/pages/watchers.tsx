import { get } from '../api.ts';
import type { Heartbeat, MaintenanceWindow } from '../model.ts';
import { ErrorNote, useLoad } from '../ui.tsx';

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const every = (seconds: number): string =>
  seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;

const STATE_CLASS: Record<Heartbeat['state'], string> = {
  UP: 'status-resolved',
  LATE: 'status-acknowledged',
  DOWN: 'status-open',
  PAUSED: '',
};

/** The heartbeats with their state and last ping, and the maintenance windows, open ones marked. */
export const WatchersPage = () => {
  const loaded = useLoad(async () => {
    const [heartbeats, windows] = await Promise.all([
      get<{ heartbeats: Heartbeat[] }>('/heartbeats'),
      get<{ maintenanceWindows: MaintenanceWindow[] }>('/maintenance-windows'),
    ]);
    return { heartbeats: heartbeats.data.heartbeats, windows: windows.data.maintenanceWindows };
  }, 'watchers');
  return (
    <main>
      <h1>Heartbeats</h1>
      <ErrorNote error={loaded.error} />
      {loaded.value && loaded.value.heartbeats.length === 0 && <p>No heartbeats.</p>}
      <ul class="rows">
        {(loaded.value?.heartbeats ?? []).map((heartbeat) => (
          <li key={heartbeat.id} class="row">
            <span class="row-title">
              {heartbeat.name} <span class={`badge ${STATE_CLASS[heartbeat.state]}`}>{heartbeat.state}</span>
            </span>
            <span class="row-meta">
              <span>
                every {every(heartbeat.intervalSeconds)}
                {heartbeat.graceSeconds > 0 && `, ${every(heartbeat.graceSeconds)} of grace`}
              </span>
              {heartbeat.serviceId && <span>{heartbeat.serviceId}</span>}
              <span>
                {heartbeat.lastPingAt ? `last ping ${TIME.format(new Date(heartbeat.lastPingAt))}` : 'never pinged'}
              </span>
            </span>
          </li>
        ))}
      </ul>
      <h2>Maintenance windows</h2>
      {loaded.value && loaded.value.windows.length === 0 && <p>No maintenance windows.</p>}
      <ul class="rows">
        {(loaded.value?.windows ?? []).map((window) => (
          <li key={window.id} class={`row${window.active ? ' now' : ''}`}>
            <span class="row-title">
              {window.reason}
              {window.active && <span class="badge status-acknowledged">in maintenance now</span>}
            </span>
            <span class="row-meta">
              <span>{window.serviceIds.join(', ')}</span>
              <span>
                {TIME.format(new Date(window.startsAt))} – {TIME.format(new Date(window.endsAt))}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </main>
  );
};
