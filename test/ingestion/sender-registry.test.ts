import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  INGESTION_SENDERS,
  type IngestionSender,
  ROUTED_SENDERS,
  SIGNED_SENDERS,
  senderNamed,
} from '#lib/ingestion/senders/index.ts';
import { SENDER_FIXTURES } from '../support/sender-fixtures.ts';
import { ingestRouteKey } from '#lib/ingestion/senders/sender.ts';
import { ingestion } from '#lib/routes/ingestion.ts';
import { FIXTURES_DIR } from './support.ts';

/** What the registry promises: one folder per sender, each fixture listed, a route per sender and no other. */
describe('the sender registry', () => {
  it('lists each fixture folder as a sender, and each payload file of it as its fixtures', () => {
    const folders = readdirSync(FIXTURES_DIR);
    expect(folders.toSorted()).toEqual(
      INGESTION_SENDERS.filter((name) => SENDER_FIXTURES[name].files.length > 0).toSorted(),
    );
    for (const name of folders) {
      const payloads = readdirSync(join(FIXTURES_DIR, name)).filter((file) => !/\.(md|ya?ml)$/.test(file));
      expect(SENDER_FIXTURES[name as IngestionSender].files.toSorted(), name).toEqual(payloads.toSorted());
    }
  });

  it("gives every sender with a route its route, named after it, and the signing senders' their secrets", () => {
    const ingestRoutes = Object.entries(ingestion.routes).filter(([key]) => /^ingest[A-Z]/.test(key));
    expect(ingestRoutes.map(([key, route]) => [key, route.method, route.path])).toEqual(
      ROUTED_SENDERS.map((name) => [ingestRouteKey(name), 'POST', `/api/v1/ingestion/${name}`]),
    );
    expect(ingestRouteKey('metrics-alerts')).toBe('ingestMetricsAlerts');
    expect(ROUTED_SENDERS).toEqual(INGESTION_SENDERS.filter((name) => senderNamed(name).route));
    expect(SIGNED_SENDERS).toEqual(INGESTION_SENDERS.filter((name) => senderNamed(name).signature));
  });
});
