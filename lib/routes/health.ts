import * as z from 'zod/mini';
import { defineGroup } from '#lib/http/route.ts';

export const health = defineGroup({
  name: 'health',
  description: 'Liveness of the service.',
  needs: [],
  routes: {
    getHealth: {
      method: 'GET',
      path: '/api/v1/health',
      summary: 'Report that the service is up',
      auth: 'public',
      response: { status: 200, data: z.object({ status: z.literal('ok') }) },
    },
  },
});
