import { createGroupHandler } from '#lib/http/group-handler.ts';
import { business } from '#lib/routes/business.ts';

export const handler = createGroupHandler(business, {});
