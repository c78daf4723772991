import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { binary, created, ok } from '#lib/http/envelope.ts';
import { schedules } from '#lib/routes/schedules.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
/** The link base of calendar and confirmation links loads with the first route that hands one out. */
const requestBaseUrl = onFirstUse(() => import('#lib/app/request-base-url.ts'));
const service = onFirstUse(() => import('#lib/schedules/schedule-service.ts'));
const policies = onFirstUse(() => import('#lib/schedules/escalation-policy-service.ts'));

export const handler = createGroupHandler(schedules, {
  listSchedules: async (request) =>
    ok(await (await service()).listSchedules(request.scope, (await requestBaseUrl()).baseUrlOf(request))),
  createSchedule: async (request) =>
    created(
      await (await service()).createSchedule(request.scope, request.body, (await requestBaseUrl()).baseUrlOf(request)),
      {
        message: 'Schedule created',
      },
    ),
  getSchedule: async (request) =>
    ok(
      await (await service()).getSchedule(
        request.scope,
        request.params.id,
        (await requestBaseUrl()).baseUrlOf(request),
      ),
    ),
  replaceSchedule: async (request) =>
    ok(
      await (await service()).replaceSchedule(
        request.scope,
        request.params.id,
        request.body,
        (await requestBaseUrl()).baseUrlOf(request),
      ),
      {
        message: 'Schedule replaced',
      },
    ),
  deleteSchedule: async ({ scope, params }) => {
    await (await service()).deleteSchedule(scope, params.id);
    return ok({ id: params.id }, { message: 'Schedule deleted' });
  },
  listOverrides: async ({ scope, params }) => ok(await (await service()).listOverrides(scope, params.id)),
  createOverride: async ({ scope, params, body }) =>
    created(await (await service()).createOverride(scope, params.id, body), { message: 'Override created' }),
  deleteOverride: async ({ scope, params }) => {
    await (await service()).deleteOverride(scope, params.id, params.overrideId);
    return ok({ id: params.overrideId }, { message: 'Override deleted' });
  },
  whoIsOnCall: async ({ scope, params, query }) => ok(await (await service()).whoIsOnCall(scope, params.id, query.at)),
  listShifts: async ({ scope, params, query }) => ok(await (await service()).listShifts(scope, params.id, query)),
  calendarFeed: async ({ accountScope, params }) =>
    binary(
      'text/calendar; charset=utf-8',
      Buffer.from(await (await service()).calendarOfLink(accountScope, params.token), 'utf8'),
      { 'cache-control': 'no-store' },
    ),
  listEscalationPolicies: async ({ scope }) => ok(await (await policies()).listEscalationPolicies(scope)),
  createEscalationPolicy: async (request) =>
    created(
      await (await policies()).createEscalationPolicy(
        request.scope,
        request.body,
        (await requestBaseUrl()).baseUrlOf(request),
      ),
      {
        message: 'Escalation policy created',
      },
    ),
  getEscalationPolicy: async ({ scope, params }) => ok(await (await policies()).getEscalationPolicy(scope, params.id)),
  replaceEscalationPolicy: async (request) =>
    ok(
      await (await policies()).replaceEscalationPolicy(
        request.scope,
        request.params.id,
        request.body,
        (await requestBaseUrl()).baseUrlOf(request),
      ),
      {
        message: 'Escalation policy replaced',
      },
    ),
  deleteEscalationPolicy: async ({ scope, params }) => {
    await (await policies()).deleteEscalationPolicy(scope, params.id);
    return ok({ id: params.id }, { message: 'Escalation policy deleted' });
  },
});
