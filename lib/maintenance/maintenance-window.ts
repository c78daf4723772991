/** A window's service names are compared trimmed and without case, as people type them in alerts. */
const serviceKey = (name: string): string => name.trim().toLowerCase();

export interface MaintenanceWindow {
  id: string;
  serviceIds: string[];
  startsAt: string;
  endsAt: string;
  reason: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** Start inclusive, end exclusive: a window ended early at `now` (a PUT) is over at once. */
export const isActiveAt = (window: Pick<MaintenanceWindow, 'startsAt' | 'endsAt'>, instant: Date): boolean => {
  const at = instant.getTime();
  return Date.parse(window.startsAt) <= at && at < Date.parse(window.endsAt);
};

/**
 * Whether the window names one of `services`: a signal's `serviceId`, or the services of an incident's
 * `serviceArea` (a comma-separated list when correlation opened it for signals of several services).
 */
export const coversAny = (window: Pick<MaintenanceWindow, 'serviceIds'>, services: readonly string[]): boolean => {
  const named = new Set(window.serviceIds.map(serviceKey));
  return services.some((service) => named.has(serviceKey(service)));
};

/** The services an incident is about, from its `serviceArea`. */
/**
 * The window that holds any of `services` at `instant`, if one does (the one ending last): what correlation
 * asks of a signal's service. None without services.
 */
export const windowCovering = (
  windows: readonly MaintenanceWindow[],
  { services, instant }: { services: readonly string[]; instant: Date },
): MaintenanceWindow | undefined =>
  services.length === 0
    ? undefined
    : windows
        .filter((window) => isActiveAt(window, instant) && coversAny(window, services))
        .sort((a, b) => b.endsAt.localeCompare(a.endsAt))[0];

export const servicesOfArea = (serviceArea: string | null | undefined): string[] =>
  (serviceArea ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** Window ids are ULIDs; any other path value names no window and is answered without a read. */
export const isWindowId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
