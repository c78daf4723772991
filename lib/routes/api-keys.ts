import { defineGroup } from '#lib/http/route.ts';
import { apiKeyIdParams, createApiKeyBody, updateApiKeyBody } from '#lib/api-keys/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { usagePlan } from '#lib/ports/usage-plan/usage-plan-need.ts';
import { emptyData } from '#lib/contract/response-fields.ts';
import { apiKeyData, createdApiKeyData, rotatedApiKeyData } from '#lib/api-keys/schemas.ts';
import * as z from 'zod/mini';

export const apiKeys = defineGroup({
  name: 'api-keys',
  description: 'Workspace API keys; Bearer token and ADMIN role only.',
  needs: [tableReadWrite, signingKeys, usagePlan],
  routes: {
    createKey: {
      method: 'POST',
      path: '/api/v1/apikey/createapikey',
      summary: 'Create an API key; the secret is returned only now',
      auth: 'bearer',
      access: 'admin',
      request: { body: createApiKeyBody },
      response: { status: 201, data: createdApiKeyData },
    },
    listKeys: {
      method: 'GET',
      path: '/api/v1/apikey/apikeys',
      summary: 'List the workspace API keys, never including the secret',
      auth: 'bearer',
      access: 'admin',
      response: { status: 200, data: z.array(apiKeyData) },
    },
    rotateKey: {
      method: 'POST',
      path: '/api/v1/apikey/:id/rotate',
      summary: 'Rotate an API key; the new secret is returned only now',
      auth: 'bearer',
      access: 'admin',
      request: { params: apiKeyIdParams },
      response: { status: 200, data: rotatedApiKeyData },
    },
    revokeKey: {
      method: 'POST',
      path: '/api/v1/apikey/:id/revoke',
      summary: 'Revoke an API key',
      auth: 'bearer',
      access: 'admin',
      request: { params: apiKeyIdParams },
      response: { status: 200, data: emptyData },
    },
    updateKey: {
      method: 'PUT',
      path: '/api/v1/apikey/:id',
      summary: 'Rename an API key or set whether it is active',
      auth: 'bearer',
      access: 'admin',
      request: { params: apiKeyIdParams, body: updateApiKeyBody },
      response: { status: 200, data: apiKeyData },
    },
    deleteKey: {
      method: 'DELETE',
      path: '/api/v1/apikey/:id',
      summary: 'Delete an API key permanently',
      auth: 'bearer',
      access: 'admin',
      request: { params: apiKeyIdParams },
      response: { status: 200, data: emptyData },
    },
  },
});
