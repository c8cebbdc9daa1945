import { BASIC_AUTH } from '../http/openapi/components';

/** The files of swagger-ui-dist that the page loads, and nothing else of the package. */
export const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'] as const;

/** The page's own script, served from the server like everything it loads (no inline script). */
export const INITIALIZER_FILE = 'swagger-initializer.js';

/** The page's own styles, for its header (no inline style either). */
export const STYLE_FILE = 'docs-page.css';

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The page at /docs, whose every `src` and `href` is relative (`docs/...`, `openapi.json`, `./` for the
 * dashboard its header links back to), so that it works behind a proxy that serves the server under a
 * path of its own.
 */
export function docsPage(assetFolder: string): string {
  const asset = (file: (typeof SWAGGER_UI_FILES)[number]) => escapeAttribute(`docs/${assetFolder}/${file}`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>IVR reporting server: API reference</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="docs/${STYLE_FILE}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
<link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16">
</head>
<body>
<header class="page-header">
<nav aria-label="Pages"><a id="dashboard-link" href="./">Reports dashboard</a></nav>
</header>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="docs/${INITIALIZER_FILE}"></script>
</body>
</html>
`;
}

/**
 * The header above Swagger UI, as wide as Swagger UI's own content (its `.wrapper`), in its font, the
 * link in the dashboard's colours.
 */
export const STYLE_SHEET = `.page-header {
  border-bottom: 1px solid #d9d9d9;
}

.page-header nav {
  box-sizing: border-box;
  max-width: 1460px;
  margin: 0 auto;
  padding: 12px 20px;
  font-family: sans-serif;
  font-size: 16px;
}

.page-header a {
  color: #1d4ed8;
  font-weight: 600;
}

.page-header a:hover {
  color: #1e3a8a;
}
`;

/**
 * Swagger UI on this server's document: no validator badge (it would call an online service), "Try it
 * out" against the document's server, and after a successful POST /api/auth in JSON, the returned pair
 * authorises the raw-data resources, as a client would use it next.
 */
export const INITIALIZER_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  var ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    responseInterceptor: function (response) {
      var credentials = response.body;
      if (response.ok && /\\/api\\/auth([?#]|$)/.test(response.url) && credentials && typeof credentials.login === 'string') {
        ui.preauthorizeBasic(${JSON.stringify(BASIC_AUTH)}, credentials.login, credentials.password);
      }
      return response;
    },
  });
});
`;

/**
 * What the page may load: its own scripts, styles and images (Swagger UI's icons are data: URLs), and
 * requests to this server (and PUBLIC_URL's origin, where "Try it out" sends them when it is set).
 */
export function docsContentSecurityPolicy(publicUrl: string | undefined): string {
  const connect = publicUrl === undefined ? "'self'" : `'self' ${new URL(publicUrl).origin}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
