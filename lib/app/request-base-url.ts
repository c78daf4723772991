import type { APIGatewayProxyEvent } from 'aws-lambda';
import { publicBaseUrl } from '#lib/ingestion/senders/orchestrator/manifest.ts';

/**
 * The API's URL as the caller reached it (stage or base path kept): for links the service hands out, a schedule's
 * `calendarUrl` and an outside address's confirmation link, so no function needs the API's URL configured.
 */
export const baseUrlOf = ({
  event,
  headers,
}: {
  event: APIGatewayProxyEvent;
  headers: Record<string, string>;
}): string => publicBaseUrl(event, headers, event.path.slice(event.path.indexOf('/api/v1/')));
