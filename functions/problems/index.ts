import { createGroupHandler } from '#lib/http/group-handler.ts';
import { problems } from '#lib/routes/problems.ts';

export const handler = createGroupHandler(problems, {});
