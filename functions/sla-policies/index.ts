import { createGroupHandler } from '#lib/http/group-handler.ts';
import { slaPolicies } from '#lib/routes/sla-policies.ts';

export const handler = createGroupHandler(slaPolicies, {});
