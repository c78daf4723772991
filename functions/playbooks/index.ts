import { createGroupHandler } from '#lib/http/group-handler.ts';
import { playbooks } from '#lib/routes/playbooks.ts';

export const handler = createGroupHandler(playbooks, {});
