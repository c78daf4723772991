import { HIGH_INCIDENT_POLICY } from '../../sla/support.ts';
import { OUTSIDE_CONTACT } from './account-requests.ts';
import { V1, byAdmin, byKey, creating, withIds, type RequestContext, type RouteRequests } from './request-helpers.ts';
const silentRule = {
  name: 'Nights',
  startTime: '22:00',
  endTime: '06:00',
  timezone: 'Europe/Berlin',
  daysOfWeek: [1, 2, 3, 4, 5],
  teamScope: 'payments',
};

const heartbeat = { name: 'Nightly backup', intervalSeconds: 86_400, graceSeconds: 3600, serviceId: 'backups' };

/** The heartbeat's ping path, from the ping URL its create answered. */
const pingPath = ({ ids }: RequestContext): string => new URL(ids.heartbeatPingUrl as string).pathname;

/** An hour of maintenance of a service no other request's signal names, from now. */
const maintenance = () => ({
  serviceIds: ['billing-batch'],
  startsAt: new Date().toISOString(),
  endsAt: new Date(Date.now() + 3600_000).toISOString(),
  reason: 'Database upgrade',
});

/** A weekly rotation of the admin alone, from an hour ago. */
const scheduleOf = ({ admin }: RequestContext) => ({
  name: 'Checkout',
  timezone: 'Europe/Berlin',
  layers: [
    {
      start: new Date(Date.now() - 60 * 60_000).toISOString(),
      rotationType: 'weekly',
      handoffTime: '09:00',
      members: [admin.user.id],
    },
  ],
});

/** The admin at once, the lead's address five minutes later. */
const escalationPolicyOf = ({ admin }: RequestContext) => ({
  name: 'Checkout',
  levels: [
    { delayMinutes: 0, targets: [{ type: 'member', id: admin.user.id }] },
    { delayMinutes: 5, targets: [{ type: 'email', address: 'lead@example.com' }] },
  ],
});

/** `<group>.<route key>` of on-call: day assignments, schedules and escalation policies, SLA policies, silent hours, heartbeats and maintenance windows. */
export const ON_CALL_REQUESTS: Record<string, RouteRequests> = {
  'on-call.assignMember': ({ client, admin: { auth, user } }) =>
    client.request(
      'POST',
      `${V1}/assign-member`,
      { userId: user.id, date: '2030-01-01', startTime: '09:00', endTime: '17:00' },
      auth,
    ),
  'on-call.listAssignments': byKey('/get-all-assign'),
  'on-call.getAssignment': async (context) => {
    const list = await context.client.request('GET', `${V1}/get-all-assign`, undefined, context.admin.auth);
    const id = list.body.data.assignments[0]?.id;
    return context.client.request('GET', `${V1}/get-assign/${id}`, undefined, context.admin.auth);
  },

  'schedules.listSchedules': byKey('/schedules'),
  'schedules.createSchedule': async (context) => {
    const reply = await creating(context, 'schedule', '/schedules', scheduleOf(context));
    context.ids.calendarPath = new URL(reply.body.data.calendarUrl).pathname.replace(/^.*(?=\/api\/v1\/)/, '');
    return reply;
  },
  'schedules.getSchedule': withIds('GET', ({ schedule: id }) => `/schedules/${id}`, undefined, 'key'),
  'schedules.replaceSchedule': async (context) =>
    withIds('PUT', ({ schedule: id }) => `/schedules/${id}`, scheduleOf(context))(context),
  'schedules.createOverride': async (context) => {
    const start = new Date().toISOString();
    const end = new Date(Date.now() + 60 * 60_000).toISOString();
    const body = { userId: context.admin.user.id, start, end };
    return creating(context, 'override', `/schedules/${context.ids.schedule}/overrides`, body);
  },
  'schedules.listOverrides': withIds('GET', ({ schedule: id }) => `/schedules/${id}/overrides`, undefined, 'key'),
  'schedules.whoIsOnCall': withIds('GET', ({ schedule: id }) => `/schedules/${id}/on-call`, undefined, 'key'),
  'schedules.listShifts': withIds(
    'GET',
    ({ schedule: id }) => `/schedules/${id}/shifts?from=2026-01-01T00:00:00Z&to=2026-01-08T00:00:00Z`,
  ),
  'schedules.calendarFeed': ({ client, ids }) => client.request('GET', ids.calendarPath as string),
  'schedules.deleteOverride': withIds(
    'DELETE',
    ({ schedule, override }) => `/schedules/${schedule}/overrides/${override}`,
  ),
  'schedules.deleteSchedule': withIds('DELETE', ({ schedule: id }) => `/schedules/${id}`),
  'schedules.listEscalationPolicies': byKey('/escalation-policies'),
  'schedules.createEscalationPolicy': (context) =>
    creating(context, 'escalationPolicy', '/escalation-policies', escalationPolicyOf(context)),
  'schedules.getEscalationPolicy': withIds('GET', ({ escalationPolicy: id }) => `/escalation-policies/${id}`),
  'schedules.replaceEscalationPolicy': (context) =>
    withIds('PUT', ({ escalationPolicy: id }) => `/escalation-policies/${id}`, escalationPolicyOf(context))(context),
  'schedules.deleteEscalationPolicy': withIds('DELETE', ({ escalationPolicy: id }) => `/escalation-policies/${id}`),

  'sla-policies.createPolicy': (context) =>
    creating(context, 'slaPolicy', '/sla-policies', { ...HIGH_INCIDENT_POLICY, escalationContact: OUTSIDE_CONTACT }),
  'sla-policies.listPolicies': byKey('/sla-policies'),
  'sla-policies.getPolicy': withIds('GET', ({ slaPolicy: id }) => `/sla-policies/${id}`, undefined, 'key'),
  'sla-policies.replacePolicy': withIds('PUT', ({ slaPolicy: id }) => `/sla-policies/${id}`, HIGH_INCIDENT_POLICY),
  'sla-policies.deletePolicy': withIds('DELETE', ({ slaPolicy: id }) => `/sla-policies/${id}`),

  'silent-hours.listRules': byKey('/silent-hours'),
  'silent-hours.replaceRules': async (context) => {
    const reply = await byAdmin('POST', '/silent-hours', { rules: [silentRule, silentRule] })(context);
    context.ids.silentRule = reply.body.data.rules[0].id;
    return reply;
  },
  'silent-hours.replaceRule': withIds('PUT', ({ silentRule: id }) => `/silent-hours/${id}`, silentRule),
  'silent-hours.deleteRule': withIds('DELETE', ({ silentRule: id }) => `/silent-hours/${id}`),

  'heartbeats.createHeartbeat': async (context) => {
    const reply = await creating(context, 'heartbeat', '/heartbeats', heartbeat);
    context.ids.heartbeatPingUrl = reply.body.data.pingUrl;
    return reply;
  },
  'heartbeats.listHeartbeats': byKey('/heartbeats'),
  'heartbeats.getHeartbeat': withIds('GET', ({ heartbeat: id }) => `/heartbeats/${id}`, undefined, 'key'),
  'heartbeats.replaceHeartbeat': withIds('PUT', ({ heartbeat: id }) => `/heartbeats/${id}`, heartbeat),
  // A heartbeat of its own, so the first is still there, missed, when the SLA sweep runs a day later.
  'heartbeats.deleteHeartbeat': async (context) => {
    await creating(context, 'doomedHeartbeat', '/heartbeats', heartbeat);
    return withIds('DELETE', ({ doomedHeartbeat: id }) => `/heartbeats/${id}`)(context);
  },

  'heartbeat-ping.pingHeartbeatGet': (context) => context.client.request('GET', pingPath(context)),
  'heartbeat-ping.pingHeartbeatPost': (context) => context.client.request('POST', pingPath(context)),

  'maintenance-windows.createWindow': (context) =>
    creating(context, 'maintenanceWindow', '/maintenance-windows', maintenance()),
  'maintenance-windows.listWindows': byKey('/maintenance-windows'),
  'maintenance-windows.getWindow': withIds(
    'GET',
    ({ maintenanceWindow: id }) => `/maintenance-windows/${id}`,
    undefined,
    'key',
  ),
  'maintenance-windows.replaceWindow': (context) =>
    withIds('PUT', ({ maintenanceWindow: id }) => `/maintenance-windows/${id}`, maintenance())(context),
  'maintenance-windows.deleteWindow': withIds('DELETE', ({ maintenanceWindow: id }) => `/maintenance-windows/${id}`),
};
