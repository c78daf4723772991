import { defineGroup } from '#lib/http/route.ts';
import { assignMemberBody, assignmentIdParams } from '#lib/on-call/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { assignmentData, assignmentsData } from '#lib/on-call/schemas.ts';

export const onCall = defineGroup({
  name: 'on-call',
  description: 'On-call assignments of members to dates and hours.',
  needs: [tableReadWrite, signingKeys],
  routes: {
    assignMember: {
      method: 'POST',
      path: '/api/v1/assign-member',
      summary: 'Assign a member to an on-call shift',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { body: assignMemberBody },
      response: { status: 201, data: assignmentData },
    },
    listAssignments: {
      method: 'GET',
      path: '/api/v1/get-all-assign',
      summary: 'List on-call assignments, latest date first',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      response: { status: 200, data: assignmentsData },
    },
    getAssignment: {
      method: 'GET',
      path: '/api/v1/get-assign/:id',
      summary: 'Get one on-call assignment',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: assignmentIdParams },
      response: { status: 200, data: assignmentData },
    },
  },
});
