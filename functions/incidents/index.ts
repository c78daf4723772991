import { createGroupHandler } from '#lib/http/group-handler.ts';
import { incidents } from '#lib/routes/incidents.ts';

export const handler = createGroupHandler(incidents, {});
