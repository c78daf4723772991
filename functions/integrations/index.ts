import { createGroupHandler } from '#lib/app/group-handler.ts';
import { integrations } from '#lib/routes/integrations.ts';

export const handler = createGroupHandler(integrations, {});
