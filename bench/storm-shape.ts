import type { SteadyResult, StormResult, StormShape } from './alert-storm.ts';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);

/** Issue 32's storm: 40 services, 25 critical alerts each, each delivered three times, 16 in flight. */
export const STORM_SHAPE: StormShape = {
  services: Math.max(4, Math.round(40 * SCALE)),
  alertsPerService: 25,
  deliveries: 3,
  inFlight: 16,
};

/** The steady load after it: 10 alerts a second for 20 s over 10 fresh services. */
export const STEADY_RATE = { alertsPerSecond: 10, seconds: Math.max(5, Math.round(20 * SCALE)), services: 10 };

export const printAlertStorm = ({ storm, steady }: { storm: StormResult; steady: SteadyResult }): void => {
  const { services, alertsPerService, deliveries, inFlight } = storm.shape;
  console.log(
    `\nAlert storm: ${services} services x ${alertsPerService} critical alerts x ${deliveries} deliveries, ` +
      `${inFlight} in flight (${services * alertsPerService * deliveries} deliveries, all accepted), ` +
      `${storm.acceptedPerSecond}/s; every signal correlated ${(storm.drainedAfterMs / 1000).toFixed(1)} s after the first`,
  );
  console.table([
    { from: "a service's first accepted alert", to: 'its incident', ...storm.firstAlertToIncident },
    { from: "a service's first accepted alert", to: 'its page (e-mail)', ...storm.firstAlertToPage },
  ]);
  console.table([
    {
      signals: storm.signals,
      occurrences: storm.occurrences,
      lost: storm.lost,
      doubled: storm.doubled,
      incidentsPerService: storm.incidentsPerService,
      pagesPerService: storm.pagesPerService,
    },
  ]);
  console.log(`\nSteady: ${steady.alertsPerSecond} alerts/s, each alert's acceptance to its signal in an incident`);
  console.table([steady.alertToIncident]);
};
