import { useState } from 'preact/hooks';
import { api, get } from '../api.ts';
import { ApiForm, Field } from '../form.tsx';
import type { CreatedIntegrationKey, IntegrationKey, Service } from '../model.ts';
import { ErrorNote, useAction, useLoad, when } from '../ui.tsx';

const KEYS = '/ingestion/integration-keys';

/** The key just created: shown this once, as the API answers it only to its create. */
const NewKey = ({ created, onDone }: { created: CreatedIntegrationKey; onDone: () => void }) => (
  <section class="card" aria-label="New integration key">
    <h2>Key for {created.name}</h2>
    <p>Copy it now: it is shown only this once. Senders carry it as PagerDuty's routing_key or as GenieKey.</p>
    <input
      class="secret"
      readOnly
      value={created.key}
      aria-label="Integration key"
      onFocus={(e) => e.currentTarget.select()}
    />
    <div class="actions">
      <button type="button" onClick={() => void navigator.clipboard?.writeText(created.key)}>
        Copy
      </button>
      <button type="button" class="primary" onClick={onDone}>
        Done
      </button>
    </div>
  </section>
);

/**
 * The workspace's integration keys (docs/ingestion.md, "Integration keys"), ADMIN only as their routes are: each
 * key's name and service, a form that creates one and shows it once, and revoke (after a second tap).
 */
export const IntegrationKeysPage = () => {
  const loaded = useLoad(async () => {
    const [keys, map] = await Promise.all([get<IntegrationKey[]>(KEYS), get<{ services: Service[] }>('/service-map')]);
    return { keys: keys.data, services: map.data.services };
  }, 'integration-keys');
  const [name, setName] = useState('');
  const [serviceId, setServiceId] = useState('');
  const [created, setCreated] = useState<CreatedIntegrationKey>();
  const [revoking, setRevoking] = useState<string>();
  const create = useAction();
  const revoke = useAction();
  const services = loaded.value?.services ?? [];
  const serviceName = (id: string): string => services.find((service) => service.id === id)?.name ?? id;

  const submit = () =>
    void create
      .run(async () => setCreated((await api<CreatedIntegrationKey>('POST', KEYS, { name, serviceId })).data))
      .then((done) => {
        if (!done) return;
        setName('');
        loaded.reload();
      });
  const remove = (key: IntegrationKey) =>
    void revoke
      .run(() => api('DELETE', `${KEYS}/${encodeURIComponent(key.id)}`))
      .then((done) => {
        setRevoking(undefined);
        if (done) loaded.reload();
      });

  return (
    <main>
      <h1>Integration keys</h1>
      <p>Per-service keys for PagerDuty Events API v2 and Opsgenie senders: change their URL, keep their config.</p>
      <ErrorNote error={loaded.error ?? revoke.error} />
      {created && <NewKey created={created} onDone={() => setCreated(undefined)} />}
      {loaded.value && loaded.value.keys.length === 0 && <p>No integration keys.</p>}
      <ul class="rows">
        {(loaded.value?.keys ?? []).map((key) => (
          <li key={key.id} class="row">
            <span class="row-title">{key.name}</span>
            <span class="row-meta">
              <span>{serviceName(key.serviceId)}</span>
              <span>created {when(key.createdAt)}</span>
            </span>
            <span class="row-actions">
              {revoking === key.id ? (
                <>
                  <button type="button" class="primary" disabled={revoke.busy} onClick={() => remove(key)}>
                    Revoke {key.name}
                  </button>
                  <button type="button" onClick={() => setRevoking(undefined)}>
                    Keep
                  </button>
                </>
              ) : (
                <button type="button" onClick={() => setRevoking(key.id)}>
                  Revoke
                </button>
              )}
            </span>
          </li>
        ))}
      </ul>
      <h2>New key</h2>
      <ApiForm
        error={create.error}
        onSubmit={submit}
        actions={
          <button type="submit" class="primary" disabled={create.busy}>
            Create key
          </button>
        }
      >
        <Field label="Name" name="name" value={name} onValue={setName} required />
        {services.length > 0 ? (
          <label htmlFor="field-serviceId">
            Service
            <select
              id="field-serviceId"
              name="serviceId"
              required
              value={serviceId}
              onChange={(e) => setServiceId(e.currentTarget.value)}
            >
              <option value="">Choose a service</option>
              {services.map((service) => (
                <option key={service.id} value={service.id}>
                  {service.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <Field label="Service" name="serviceId" value={serviceId} onValue={setServiceId} required />
        )}
      </ApiForm>
    </main>
  );
};
