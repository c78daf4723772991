import { createGroupHandler } from '#lib/http/group-handler.ts';
import { blastRadius } from '#lib/routes/blast-radius.ts';

export const handler = createGroupHandler(blastRadius, {});
