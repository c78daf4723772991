import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

export const serviceMap = defineGroup({
  name: 'service-map',
  description: 'Services, their dependencies, topology and downstream impact.',
  needs: [tableReadWrite, signingKeys],
  routes: {
    getTopology: {
      method: 'GET',
      path: '/api/v1/service-map/topology',
      summary: 'Service topology as nodes and edges',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
    },
    listServices: {
      method: 'GET',
      path: '/api/v1/service-map',
      summary: 'List services',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
    },
    getService: {
      method: 'GET',
      path: '/api/v1/service-map/:id',
      summary: 'Get a service',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
    },
    getDownstreamImpact: {
      method: 'GET',
      path: '/api/v1/service-map/:id/downstream-impact',
      summary: 'Direct and transitive dependents of a service',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
    },
    createService: {
      method: 'POST',
      path: '/api/v1/service-map',
      summary: 'Create a service',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    createDependency: {
      method: 'POST',
      path: '/api/v1/service-map/dependencies',
      summary: 'Create a dependency between two services',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    updateService: {
      method: 'PATCH',
      path: '/api/v1/service-map/:id',
      summary: 'Update a service; only provided fields change',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    deleteService: {
      method: 'DELETE',
      path: '/api/v1/service-map/:id',
      summary: 'Delete a service and all its dependencies',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    deleteDependency: {
      method: 'DELETE',
      path: '/api/v1/service-map/dependencies/:depId',
      summary: 'Delete one dependency',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
  },
});
