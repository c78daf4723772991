import { buildOpenApiDocument } from '#lib/http/openapi.ts';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';

/**
 * The docs page's introduction: a few lines, so the operations come first, and the decisions one link away
 * rather than inline (they were 4,400 px of the page). Links are relative to the page (`/api/v1/docs`): the
 * docs function serves `docs/<page>` and `docs/spec/<page>` below it (docs/api-docs.md).
 */
const INTRODUCTION = `Incident management for small teams on AWS serverless: webhooks from code hosts, CI, orchestrators, \
paging and monitoring tools become signals, deduplicated and correlated into incidents, with problems, playbooks, a \
service map, SLA policies, on-call and an analysis engine on top.

Every answer is an envelope: \`{ success: true, message, data }\`, or \`{ success: false, message, errors }\`. Sign \
in with \`POST /api/v1/auth/login\` and send the access token as \`Authorization: Bearer <token>\`; senders post to \
the ingestion routes with an API key. **Authorize** takes either, to try an operation here.

Read more: [the decisions behind this API](docs/decisions.md) · [the specification](docs/spec/incident-service-api.md) \
and [its product decisions](docs/spec/DECISIONS.md) · [senders and webhooks](docs/ingestion.md) · \
[tokens, keys, roles and limits](docs/security.md).`;

/** The service's OpenAPI document: the route table, introduced in a few lines. */
export const serviceOpenApiDocument = () => buildOpenApiDocument(ROUTE_GROUPS, INTRODUCTION);
