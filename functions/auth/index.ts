import { createGroupHandler } from '#lib/http/group-handler.ts';
import { auth } from '#lib/routes/auth.ts';

export const handler = createGroupHandler(auth, {});
