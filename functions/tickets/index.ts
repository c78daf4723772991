import { createGroupHandler } from '#lib/http/group-handler.ts';
import { tickets } from '#lib/routes/tickets.ts';

export const handler = createGroupHandler(tickets, {});
