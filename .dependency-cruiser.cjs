// Import rules, checked by `npm run lint` (dependency-cruiser). See apps/server/README.md and
// apps/web/README.md (Layers).
const MOD = '^apps/server/src/modules/';
const WEB = '^apps/web/src/';
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import circles, in the server or anywhere. A cycle closed only by `import type` (erased at build, e.g. a class and the HTTP layer that receives it) is not a runtime circle.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'module-internals',
      severity: 'error',
      comment: "A module uses another module only through that module's index.ts.",
      from: { path: `${MOD}([^/]+)/` },
      to: { path: `${MOD}[^/]+/.+`, pathNot: [`${MOD}$1/`, `${MOD}[^/]+/index\\.ts$`] },
    },
    {
      name: 'outside-modules-use-index',
      severity: 'error',
      comment: "Code outside the modules (demo, test harness, workers) uses a module's index.ts only.",
      from: { path: '^apps/server/src/', pathNot: `${MOD}` },
      to: { path: `${MOD}[^/]+/.+`, pathNot: `${MOD}[^/]+/index\\.ts$` },
    },
    {
      name: 'kernel-knows-no-module',
      severity: 'error',
      comment:
        'The kernel (context, errors, events, db, the HTTP server and its pieces) is below every module; the composition (src/app.ts, server.ts) is above them.',
      from: {
        path: '^apps/server/src/(errors|events|context|module|config|clock|crypto|runtime|metrics)\\.ts$|^apps/server/src/(db|http)/',
        pathNot: '\\.test\\.ts$',
      },
      to: { path: MOD },
    },
    {
      name: 'server-public-entry',
      severity: 'error',
      comment: 'Other packages use @simdock/server (src/index.ts) or @simdock/server/testing only.',
      from: { path: '^(e2e|bench|tools|packages|apps/web)/' },
      to: { path: '^apps/server/src/', pathNot: '^apps/server/src/(index|test/index)\\.ts$' },
    },
    {
      name: 'web-not-server',
      severity: 'error',
      comment: 'The web app talks to the server over HTTP; shared shapes live in packages/contract.',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'web-page-not-app',
      severity: 'error',
      comment:
        'Web layers run one way: app/ (router, shell, guards) → pages/ → shared code. A page (its tests too) imports nothing from app/; what it needs from there moves down to a shared folder.',
      from: { path: `${WEB}pages/` },
      to: { path: `${WEB}app/` },
    },
    {
      name: 'web-page-not-other-page',
      severity: 'error',
      comment:
        'A page folder (its tests too) imports nothing from another page folder: code two screens need moves down to a shared folder.',
      from: { path: `${WEB}pages/([^/]+)/` },
      to: { path: `${WEB}pages/`, pathNot: `${WEB}pages/$1/` },
    },
    {
      name: 'web-shared-not-up',
      severity: 'error',
      comment:
        "Shared web code (components/, lib/, api/, i18n/, session/, live/ and any new folder beside them), its tests too, imports neither pages/ nor app/. Exempt: app/ and main.tsx (the top) and test/ (the unit tests' harness: renderApp renders the real route table).",
      from: { path: WEB, pathNot: `${WEB}(app|pages|test)/|${WEB}main\\.tsx$` },
      to: { path: `${WEB}(app|pages)/` },
    },
    {
      name: 'contract-is-a-leaf',
      severity: 'error',
      comment: 'packages/contract depends on no app or tool.',
      from: { path: '^packages/contract/' },
      to: { path: '^(apps|tools)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|build)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    combinedDependencies: false,
    preserveSymlinks: false,
  },
};
