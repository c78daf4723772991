import { readFile } from 'node:fs/promises';
import { type BenchCall, signUpBenchAdmin } from './bench-service.ts';

/** A real Alertmanager notification (the sender's own payload), its one alert made distinct by `id`. */
const alertmanager = JSON.parse(
  await readFile(new URL('../test/fixtures/ingestion/metrics-alerts/captured.json', import.meta.url), 'utf8'),
);
const alert = (id: string) => ({
  ...alertmanager,
  alerts: alertmanager.alerts.map((one: Record<string, any>) => ({
    ...one,
    labels: { ...one.labels, instance: `web-${id}` },
    fingerprint: `bench-${id}`,
  })),
});

export const DUPLICATE_FINGERPRINTS = 50;

/**
 * The service `call` reaches, made ready to measure: a signed-in ADMIN's Bearer header, an API key for
 * ingestion and lists, the key checked and cached by the gateway's authorizer, and the fingerprints the
 * duplicate path repeats already stored. `ingest` posts one notification through that key.
 */
export const prepareIngestion = async (call: BenchCall) => {
  const { accessToken } = await signUpBenchAdmin(call);
  const auth = { authorization: `Bearer ${accessToken}` };
  const { key } = await call(
    'POST',
    '/api/v1/apikey/createapikey',
    { name: 'bench', environment: 'PRODUCTION', scopes: ['incidents:read', 'incidents:write', 'ingestion:write'] },
    auth,
  );
  const keyAuth = { 'x-api-key': key as string };
  const ingest = (id: string) => call('POST', '/api/v1/ingestion/metrics-alerts', alert(id), keyAuth);
  await ingest('warm-up');
  for (let index = 0; index < DUPLICATE_FINGERPRINTS; index += 1) await ingest(`repeat-${index}`);
  return { auth, keyAuth, ingest };
};
