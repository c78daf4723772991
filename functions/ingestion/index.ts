import { createGroupHandler } from '#lib/http/group-handler.ts';
import { ingestion } from '#lib/routes/ingestion.ts';

export const handler = createGroupHandler(ingestion, {});
