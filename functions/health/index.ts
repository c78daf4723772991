import { createGroupHandler } from '#lib/app/group-handler.ts';
import { ok } from '#lib/http/envelope.ts';
import { health } from '#lib/routes/health.ts';

export const handler = createGroupHandler(health, {
  getHealth: async () => ok({ status: 'ok' }, { message: 'Service is up' }),
});
