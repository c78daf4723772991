import { createGroupHandler } from '#lib/http/group-handler.ts';
import { apiKeys } from '#lib/routes/api-keys.ts';

export const handler = createGroupHandler(apiKeys, {});
