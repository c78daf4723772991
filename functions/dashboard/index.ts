import { createGroupHandler } from '#lib/app/group-handler.ts';
import { dashboard } from '#lib/routes/dashboard.ts';

export const handler = createGroupHandler(dashboard, {});
