import type { DocsAsset } from './docs-assets.ts';

/**
 * The API reference page: Swagger UI over the served document. Every URL is relative to the page, so the
 * same HTML works locally at `/api/v1/docs` and behind the deployed stage prefix (`/prod/api/v1/docs`).
 * The validator badge is off: it would send the document to validator.swagger.io.
 */
export const docsPage = (assetUrl: (asset: DocsAsset) => string, documentUrl: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Incident Management Service API</title>
<link rel="stylesheet" href="${assetUrl('swagger-ui.css')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assetUrl('swagger-ui-bundle.js')}"></script>
<script>
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentUrl)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
});
</script>
</body>
</html>
`;
