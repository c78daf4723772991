import { createGroupHandler } from '#lib/http/group-handler.ts';
import { dashboard } from '#lib/routes/dashboard.ts';

export const handler = createGroupHandler(dashboard, {});
