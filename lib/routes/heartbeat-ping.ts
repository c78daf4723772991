import { defineGroup } from '#lib/http/route.ts';
import { pingResponse, pingTokenParams } from '#lib/heartbeats/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';

const PING_DESCRIPTION =
  'The ping URL is the credential: no header, no key. GET and POST do the same, so `curl -fsS <url>` at the end of a ' +
  'job is enough. One conditional write per ping; pings count against the per-address limit of every public route.';

/**
 * A function of its own with the table alone: a ping is the most frequent request a heartbeat makes, and
 * needs neither the signing keys nor any queue, so its cold start and memory stay the smallest.
 */
export const heartbeatPing = defineGroup({
  name: 'heartbeat-ping',
  description: "Records a heartbeat's ping: one write, the URL's secret its only credential.",
  needs: [tableReadWrite],
  routes: {
    pingHeartbeatGet: {
      method: 'GET',
      path: '/api/v1/heartbeat-ping/:token',
      summary: 'Ping a heartbeat (its secret pingUrl); an unknown token is a 404',
      description: PING_DESCRIPTION,
      auth: 'public',
      request: { params: pingTokenParams },
      response: { status: 200, data: pingResponse },
    },
    pingHeartbeatPost: {
      method: 'POST',
      path: '/api/v1/heartbeat-ping/:token',
      summary: 'Ping a heartbeat, as GET does; a body is ignored',
      description: PING_DESCRIPTION,
      auth: 'public',
      request: { params: pingTokenParams },
      response: { status: 200, data: pingResponse },
    },
  },
});
