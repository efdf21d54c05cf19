// Import rules, checked by `npm run lint` (dependency-cruiser). See apps/server/README.md.
const MOD = '^apps/server/src/modules/';
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
      comment: 'The kernel (context, errors, events, db, http pieces) is below every module.',
      from: {
        path: '^apps/server/src/(errors|events|context|module|config|clock|crypto)\\.ts$|^apps/server/src/db/|^apps/server/src/http/',
        pathNot: '^apps/server/src/http/app\\.ts$|\\.test\\.ts$',
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
