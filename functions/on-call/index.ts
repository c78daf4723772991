import { createGroupHandler } from '#lib/http/group-handler.ts';
import { onCall } from '#lib/routes/on-call.ts';

export const handler = createGroupHandler(onCall, {});
