import { createGroupHandler } from '#lib/http/group-handler.ts';
import { assistant } from '#lib/routes/assistant.ts';

export const handler = createGroupHandler(assistant, {});
