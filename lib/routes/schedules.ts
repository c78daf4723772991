import * as z from 'zod/mini';
import { deletedPolicyView, escalationPolicyView } from '#lib/escalation-policies/responses.ts';
import { escalationPolicyBody, escalationPolicyIdParams } from '#lib/escalation-policies/schemas.ts';
import { defineGroup } from '#lib/http/route.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { mail } from '#lib/ports/mail/mail-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { deletedView, onCallView, overrideView, scheduleView, shiftView } from '#lib/schedules/responses.ts';
import {
  calendarTokenParams,
  onCallQuery,
  overrideBody,
  overrideIdParams,
  scheduleBody,
  scheduleIdParams,
  shiftsQuery,
} from '#lib/schedules/schemas.ts';

const read = { auth: 'bearerOrApiKey', scope: 'incidents:read', access: 'read' } as const;
const write = { auth: 'bearerOrApiKey', scope: 'incidents:write', access: 'write' } as const;

/**
 * On-call schedules (docs/on-call.md): rotation layers, overrides, who is on call, and a calendar feed; and the
 * escalation policies that page through them, which need what schedules need (the table) and nothing more.
 * `calendarUrl` is built on the URL the caller reached the API at, so no function needs the API's URL.
 */
export const schedules = defineGroup({
  name: 'schedules',
  description:
    'On-call schedules (rotation layers, overrides, who is on call when, a calendar feed) and escalation policies.',
  needs: [tableReadWrite, signingKeys, mail],
  routes: {
    listSchedules: {
      method: 'GET',
      path: '/api/v1/schedules',
      summary: "List the workspace's on-call schedules",
      ...read,
      response: { status: 200, data: z.array(scheduleView) },
    },
    createSchedule: {
      method: 'POST',
      path: '/api/v1/schedules',
      summary: 'Create an on-call schedule; every layer member must be a member of the workspace',
      ...write,
      request: { body: scheduleBody },
      response: { status: 201, data: scheduleView },
    },
    getSchedule: {
      method: 'GET',
      path: '/api/v1/schedules/:id',
      summary: 'Get one on-call schedule, with its calendar link',
      ...read,
      request: { params: scheduleIdParams },
      response: { status: 200, data: scheduleView },
    },
    replaceSchedule: {
      method: 'PUT',
      path: '/api/v1/schedules/:id',
      summary: "Replace a schedule's name, time zone and layers; its id, calendar link and overrides stay",
      ...write,
      request: { params: scheduleIdParams, body: scheduleBody },
      response: { status: 200, data: scheduleView },
    },
    createOverride: {
      method: 'POST',
      path: '/api/v1/schedules/:id/overrides',
      summary: 'Put a member on call from start to end, above every layer',
      ...write,
      request: { params: scheduleIdParams, body: overrideBody },
      response: { status: 201, data: overrideView },
    },
    listOverrides: {
      method: 'GET',
      path: '/api/v1/schedules/:id/overrides',
      summary: "List a schedule's overrides",
      ...read,
      request: { params: scheduleIdParams },
      response: { status: 200, data: z.array(overrideView) },
    },
    whoIsOnCall: {
      method: 'GET',
      path: '/api/v1/schedules/:id/on-call',
      summary: 'Who is on call at `at` (default now): the member, their shift, and the layer or override behind it',
      ...read,
      request: { params: scheduleIdParams, query: onCallQuery },
      response: { status: 200, data: onCallView },
    },
    listShifts: {
      method: 'GET',
      path: '/api/v1/schedules/:id/shifts',
      summary: 'The final shifts from `from` to `to` (at most 31 days), layers stacked and overrides on top',
      ...read,
      request: { params: scheduleIdParams, query: shiftsQuery },
      response: { status: 200, data: z.array(shiftView) },
    },
    calendarFeed: {
      method: 'GET',
      path: '/api/v1/calendar-feeds/:token',
      summary: "A schedule's shifts as an iCalendar feed (the schedule's calendarUrl; the token is the credential)",
      auth: 'public',
      request: { params: calendarTokenParams },
      response: { status: 200, contentType: 'text/calendar' },
    },
    deleteOverride: {
      method: 'DELETE',
      path: '/api/v1/schedules/:id/overrides/:overrideId',
      summary: 'Delete an override',
      ...write,
      request: { params: overrideIdParams },
      response: { status: 200, data: deletedView },
    },
    deleteSchedule: {
      method: 'DELETE',
      path: '/api/v1/schedules/:id',
      summary: 'Delete a schedule and its overrides; its calendar link stops working',
      ...write,
      request: { params: scheduleIdParams },
      response: { status: 200, data: deletedView },
    },
    listEscalationPolicies: {
      method: 'GET',
      path: '/api/v1/escalation-policies',
      summary: "List the workspace's escalation policies, oldest first",
      ...read,
      response: { status: 200, data: z.array(escalationPolicyView) },
    },
    createEscalationPolicy: {
      method: 'POST',
      path: '/api/v1/escalation-policies',
      summary: "Create an escalation policy; every schedule and member a level names must be the workspace's",
      ...write,
      request: { body: escalationPolicyBody },
      response: { status: 201, data: escalationPolicyView },
    },
    getEscalationPolicy: {
      method: 'GET',
      path: '/api/v1/escalation-policies/:id',
      summary: 'Get one escalation policy',
      ...read,
      request: { params: escalationPolicyIdParams },
      response: { status: 200, data: escalationPolicyView },
    },
    replaceEscalationPolicy: {
      method: 'PUT',
      path: '/api/v1/escalation-policies/:id',
      summary:
        "Replace a policy's name, levels, repeat and ack timeout; incidents under way follow it from their next page",
      ...write,
      request: { params: escalationPolicyIdParams, body: escalationPolicyBody },
      response: { status: 200, data: escalationPolicyView },
    },
    deleteEscalationPolicy: {
      method: 'DELETE',
      path: '/api/v1/escalation-policies/:id',
      summary: "Delete an escalation policy; services naming it fall back to the workspace's default escalation",
      ...write,
      request: { params: escalationPolicyIdParams },
      response: { status: 200, data: deletedPolicyView },
    },
  },
});
