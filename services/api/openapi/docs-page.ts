// /docs: Swagger UI (swagger-ui-dist, served from node_modules, so it works
// offline) reading /openapi.json. A well-kept renderer beats a page of our own.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';

const assets = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const served = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>News intelligence API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="docs"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

// A separate file rather than an inline script, so a strict Content-Security-Policy can stay on.
const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true });`;

export function docsRoutes(router: Router, document: () => unknown): void {
  router.get('/openapi.json', (ctx) => {
    ctx.body = document();
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'html';
    ctx.set(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
    );
    ctx.body = page;
  });
  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = init;
  });
  router.get('/docs/:file', (ctx, next) => {
    const type = served.get(ctx.params.file!);
    if (!type) return next();
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = createReadStream(path.join(assets, ctx.params.file!));
  });
}
