import { createGroupHandler } from '#lib/app/group-handler.ts';
import { assistant } from '#lib/routes/assistant.ts';

export const handler = createGroupHandler(assistant, {});
