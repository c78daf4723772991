import { createGroupHandler } from '#lib/app/group-handler.ts';
import { playbooks } from '#lib/routes/playbooks.ts';

export const handler = createGroupHandler(playbooks, {});
