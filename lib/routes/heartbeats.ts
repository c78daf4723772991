import { defineGroup } from '#lib/http/route.ts';
import {
  deletedHeartbeatResponse,
  heartbeatBody,
  heartbeatIdParams,
  heartbeatResponse,
  heartbeatsResponse,
} from '#lib/heartbeats/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

const byId = { params: heartbeatIdParams };

export const heartbeats = defineGroup({
  name: 'heartbeats',
  description: 'Heartbeats: jobs expected to ping, raised as alerts when they stop (docs/heartbeats.md).',
  needs: [tableReadWrite, signingKeys],
  routes: {
    createHeartbeat: {
      method: 'POST',
      path: '/api/v1/heartbeats',
      summary: 'Create a heartbeat and its secret ping URL',
      description:
        'A heartbeat not pinged within `intervalSeconds` is LATE, and after `graceSeconds` more DOWN: the sweep ' +
        'raises a signal for it, which correlation turns into an incident. The next ping resolves it. The wait ' +
        'for the first ping starts at creation.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: heartbeatBody },
      response: { status: 201, data: heartbeatResponse },
    },
    listHeartbeats: {
      method: 'GET',
      path: '/api/v1/heartbeats',
      summary: 'List heartbeats with their state and last ping',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      response: { status: 200, data: heartbeatsResponse },
    },
    getHeartbeat: {
      method: 'GET',
      path: '/api/v1/heartbeats/:id',
      summary: 'Get one heartbeat',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: byId,
      response: { status: 200, data: heartbeatResponse },
    },
    replaceHeartbeat: {
      method: 'PUT',
      path: '/api/v1/heartbeats/:id',
      summary: 'Replace a heartbeat (pause it with paused: true); its ping URL stays',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: heartbeatIdParams, body: heartbeatBody },
      response: { status: 200, data: heartbeatResponse },
    },
    deleteHeartbeat: {
      method: 'DELETE',
      path: '/api/v1/heartbeats/:id',
      summary: 'Delete a heartbeat; its ping URL stops working',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: byId,
      response: { status: 200, data: deletedHeartbeatResponse },
    },
  },
});
