import { createGroupHandler } from '#lib/app/group-handler.ts';
import { blastRadius } from '#lib/routes/blast-radius.ts';

export const handler = createGroupHandler(blastRadius, {});
