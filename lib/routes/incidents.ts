import {
  fiveWhysSchema,
  resolvedWithKbSchema,
  stakeholderSchema,
  suggestionsSchema,
} from '#lib/analysis/incident-route-schemas.ts';
import { defineGroup } from '#lib/http/route.ts';
import { reasoning } from '#lib/ports/reasoner/reasoner-need.ts';
import {
  addCommentBody,
  createIncidentBody,
  generatePdfBody,
  generateTopLevelPdfBody,
  incidentIdParams,
  listIncidentsQuery,
  resolveIncidentBody,
  ticketIdParams,
  updateIncidentBody,
} from '#lib/incidents/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { metaExtra } from '#lib/contract/response-fields.ts';
import {
  commentData,
  incidentAnalyticsData,
  incidentData,
  incidentIdData,
  incidentSignalData,
  messageData,
} from '#lib/incidents/response-schemas.ts';
import { ackTokenParams } from '#lib/notifications/ack-link-schemas.ts';
import * as z from 'zod/mini';

export const incidents = defineGroup({
  name: 'incidents',
  description: 'Incident tickets, their comments and messages, AI-assisted analysis, resolution and PDF export.',
  needs: [tableReadWrite, signingKeys, metrics, reasoning, queueSender('notifications')],
  routes: {
    generateIncidentId: {
      method: 'GET',
      path: '/api/v1/incident-ticket/generate-id',
      summary: 'Preview the next incident id (INC-YYYYMMDD-XXXX); nothing is reserved',
      description:
        'Answers `data.id`, the id the next incident created in the workspace would take if it were created now. ' +
        'It is a preview and reserves nothing: the number is allocated when an incident is created, so a create in ' +
        'between (or the UTC day changing) gives the next incident another id, and calling this route any number ' +
        'of times changes nothing. Ids are `INC-<UTC day YYYYMMDD>-<number of the day in the workspace>`, the number ' +
        'zero-padded to four digits and growing past them after 9999 (`INC-20261123-10000`).',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      response: { status: 200, data: incidentIdData },
    },
    createIncident: {
      method: 'POST',
      path: '/api/v1/incident-ticket',
      summary: 'Create an incident',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: createIncidentBody },
      response: { status: 201, data: incidentData },
    },
    listIncidents: {
      method: 'GET',
      path: '/api/v1/incident-ticket',
      summary: 'List incidents, newest first',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { query: listIncidentsQuery },
      response: { status: 200, data: z.array(incidentData), extra: metaExtra },
    },
    getIncidentAnalytics: {
      method: 'GET',
      path: '/api/v1/incident-ticket/analytics',
      summary: 'Incident totals by status and priority, mean time to acknowledge and to resolve',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      response: { status: 200, data: incidentAnalyticsData },
    },
    getIncident: {
      method: 'GET',
      path: '/api/v1/incident-ticket/:id',
      summary: 'Get an incident by record id or ticket id',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: incidentIdParams },
      response: { status: 200, data: incidentData },
    },
    listIncidentSignals: {
      method: 'GET',
      path: '/api/v1/incident-ticket/:id/signals',
      summary: 'The signals correlated into an incident, in the order they were received',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: incidentIdParams },
      response: { status: 200, data: z.array(incidentSignalData) },
    },
    updateIncident: {
      method: 'PUT',
      path: '/api/v1/incident-ticket/:id',
      summary: 'Update an incident; only provided fields change',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: incidentIdParams, body: updateIncidentBody },
      response: { status: 200, data: incidentData },
    },
    deleteIncident: {
      method: 'DELETE',
      path: '/api/v1/incident-ticket/:id',
      summary: 'Delete an incident with its comments, messages and AI analyses',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: incidentIdParams },
      response: { status: 200, data: incidentIdData },
    },
    addComment: {
      method: 'POST',
      path: '/api/v1/incident-ticket/comment',
      summary: 'Comment on an incident',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: addCommentBody },
      response: { status: 201, data: commentData },
    },
    listComments: {
      method: 'GET',
      path: '/api/v1/incident-ticket/comment/:ticketId',
      summary: 'List the comments of an incident, chronological',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: ticketIdParams },
      response: { status: 200, data: z.array(commentData) },
    },
    listMessages: {
      method: 'GET',
      path: '/api/v1/incident-ticket/message/:ticketId',
      summary: 'Message thread of an incident',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: ticketIdParams },
      response: { status: 200, data: z.array(messageData) },
    },
    resolveIncident: {
      method: 'POST',
      path: '/api/v1/incident-ticket/resolve/:id',
      summary: 'Resolve an incident, optionally with its resolution and root cause',
      description:
        'The body is optional: `resolution` (what ended the incident) and `rootCause` (why it happened), Markdown ' +
        'up to 10,000 characters each, are stored on the incident, shown by `GET /:id` and printed in its PDF. One ' +
        'left out keeps what an earlier resolution said. Any status resolves: a RESOLVED incident answers as it is ' +
        '(a changed write-up is stored), a CLOSED one becomes RESOLVED.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: incidentIdParams, body: resolveIncidentBody },
      response: { status: 200, data: incidentData },
    },
    escalateIncident: {
      method: 'POST',
      path: '/api/v1/incident-ticket/:id/escalate',
      summary: "Page the next level of the incident's escalation now",
      description:
        "Pages the next level of the incident's escalation policy (or of the default escalation) at once, whether " +
        'or not the incident was acknowledged, and raises `escalationLevel`; the levels after it keep their delays ' +
        'from now. 409 when the incident is resolved or closed, or when no level is left (docs/on-call.md).',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: incidentIdParams },
      response: { status: 200, data: incidentData },
    },
    resolveWithCustomerKb: {
      method: 'POST',
      path: '/api/v1/incident-ticket/resolve/customer-kb/:id',
      summary: 'Resolve an incident and draft a customer knowledge-base article',
      description:
        'Resolves as `POST /resolve/:id` does (from any status), then drafts a plain-language ' +
        "article from the analysis engine's evidence and stores it with the incident (the latest draft wins).",
      auth: 'bearerOrApiKey',
      scope: 'postmortems:write',
      access: 'write',
      request: { params: incidentIdParams },
      response: { status: 200, data: resolvedWithKbSchema },
    },
    getFiveWhys: {
      method: 'GET',
      path: '/api/v1/incident-ticket/resolve/ai/five-whys/:id',
      summary: 'Five-whys analysis of an incident',
      description: 'Computed on request from the evidence; each why cites evidence ids, or starts with "Unknown".',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      request: { params: incidentIdParams },
      response: { status: 200, data: fiveWhysSchema },
    },
    getSuggestion: {
      method: 'GET',
      path: '/api/v1/incident-ticket/resolve/ai/suggestion/:id',
      summary: 'Remediation suggestions for an incident',
      description: 'Ordered, most urgent first, each with the evidence ids it rests on.',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      request: { params: incidentIdParams },
      response: { status: 200, data: suggestionsSchema },
    },
    getStakeholderMessage: {
      method: 'GET',
      path: '/api/v1/incident-ticket/resolve/ai/stakeholder/:id',
      summary: 'Non-technical stakeholder message for an incident',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      request: { params: incidentIdParams },
      response: { status: 200, data: stakeholderSchema },
    },
    generatePdf: {
      method: 'POST',
      path: '/api/v1/incident-ticket/generate-pdf',
      summary: 'Export an incident as a PDF',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      request: { body: generatePdfBody },
      response: { status: 200, contentType: 'application/pdf' },
    },
    showAckLink: {
      method: 'GET',
      path: '/api/v1/ack/:token',
      summary: "A page's acknowledge link: an HTML confirmation page that changes nothing (docs/escalation.md)",
      auth: 'public',
      request: { params: ackTokenParams },
      response: { status: 200, contentType: 'text/html' },
    },
    useAckLink: {
      method: 'POST',
      path: '/api/v1/ack/:token',
      summary: "Acknowledge an OPEN incident as the link's recipient, once; used again: 409 (docs/escalation.md)",
      auth: 'public',
      request: { params: ackTokenParams },
      response: { status: 200, contentType: 'text/html' },
    },
    generateTopLevelPdf: {
      method: 'POST',
      path: '/api/v1/generate-pdf',
      summary: 'Export an incident as a PDF with an optional description',
      auth: 'bearerOrApiKey',
      scope: 'postmortems:read',
      access: 'read',
      request: { body: generateTopLevelPdfBody },
      response: { status: 200, contentType: 'application/pdf' },
    },
  },
});
