import { defineGroup } from '#lib/http/route.ts';
import {
  deletedWindowResponse,
  windowBody,
  windowIdParams,
  windowResponse,
  windowsResponse,
} from '#lib/maintenance/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

const byId = { params: windowIdParams };

export const maintenanceWindows = defineGroup({
  name: 'maintenance-windows',
  description: 'Maintenance windows: services whose alerts open no incident for a while (docs/heartbeats.md).',
  needs: [tableReadWrite, signingKeys],
  routes: {
    createWindow: {
      method: 'POST',
      path: '/api/v1/maintenance-windows',
      summary: 'Create a maintenance window',
      description:
        'While a window is open, alerts for its services are stored as signals but open no incident and page nobody, ' +
        'and escalations of incidents of those services are held. End one early with a PUT.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: windowBody },
      response: { status: 201, data: windowResponse },
    },
    listWindows: {
      method: 'GET',
      path: '/api/v1/maintenance-windows',
      summary: 'List maintenance windows, newest first (ended ones for 90 days)',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      response: { status: 200, data: windowsResponse },
    },
    getWindow: {
      method: 'GET',
      path: '/api/v1/maintenance-windows/:id',
      summary: 'Get one maintenance window',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: byId,
      response: { status: 200, data: windowResponse },
    },
    replaceWindow: {
      method: 'PUT',
      path: '/api/v1/maintenance-windows/:id',
      summary: 'Replace a maintenance window; an endsAt of now ends it early',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: windowIdParams, body: windowBody },
      response: { status: 200, data: windowResponse },
    },
    deleteWindow: {
      method: 'DELETE',
      path: '/api/v1/maintenance-windows/:id',
      summary: 'Delete a maintenance window',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: byId,
      response: { status: 200, data: deletedWindowResponse },
    },
  },
});
