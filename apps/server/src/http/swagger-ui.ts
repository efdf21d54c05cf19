import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/** SimDock's mark (the web app's favicon): the API docs' icon and top bar. */
const MARK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>SimDock</title><rect width="32" height="32" rx="8" fill="#4f46e5"/><rect x="10" y="6" width="12" height="20" rx="2.5" fill="none" stroke="#fff" stroke-width="2"/><path d="M13 20h6M13 16h6M13 12h3" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>';

/**
 * The top bar's brand: Swagger UI draws the logo (SimDock's mark, `logo` below) in
 * `.topbar-wrapper .link`, an anchor without an address, and redraws it after load; this script keeps
 * SimDock's name beside the mark and makes the anchor a link back to the app. A file (not an inline
 * script): the docs' CSP allows scripts from 'self' only.
 */
const BRAND_JS = `(function () {
  function brand() {
    var link = document.querySelector('#swagger-ui .topbar-wrapper .link');
    if (!link) return;
    if (link.getAttribute('href') !== '/') link.setAttribute('href', '/');
    if (link.querySelector('.simdock-name')) return;
    var name = document.createElement('span');
    name.className = 'simdock-name';
    name.textContent = 'SimDock API';
    var back = document.createElement('span');
    back.className = 'simdock-back';
    back.textContent = '\\u2190 Back to SimDock';
    link.append(name, back);
  }
  new MutationObserver(brand).observe(document.documentElement, { childList: true, subtree: true });
  brand();
})();
`;

const BRAND_CSS = `#swagger-ui .topbar { background: #1e1b4b; }
#swagger-ui .topbar-wrapper .link { display: flex; align-items: center; gap: 10px; color: #fff; text-decoration: none; white-space: nowrap; }
#swagger-ui .topbar-wrapper .link .simdock-name { font: 600 20px/1.2 system-ui, sans-serif; }
#swagger-ui .topbar-wrapper .link .simdock-back { font: 500 14px/1.2 system-ui, sans-serif; color: #c7d2fe; }
#swagger-ui .topbar-wrapper .link:hover .simdock-back, #swagger-ui .topbar-wrapper .link:focus-visible .simdock-back { text-decoration: underline; }
`;

/**
 * Swagger UI at /swagger carries the product's name and a way back: the page title, SimDock's icon,
 * and the top bar's brand linking to the app (docs/api.md).
 */
export const swaggerUiOptions: FastifySwaggerUiOptions = {
  routePrefix: '/swagger',
  logo: { type: 'image/svg+xml', content: MARK_SVG, href: '/', target: '_self' },
  theme: {
    title: 'SimDock API',
    css: [{ filename: 'simdock.css', content: BRAND_CSS }],
    js: [{ filename: 'simdock.js', content: BRAND_JS }],
    favicon: [
      { filename: 'simdock.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: MARK_SVG },
    ],
  },
};
