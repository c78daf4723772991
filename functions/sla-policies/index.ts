import { createGroupHandler } from '#lib/app/group-handler.ts';
import { slaPolicies } from '#lib/routes/sla-policies.ts';

export const handler = createGroupHandler(slaPolicies, {});
