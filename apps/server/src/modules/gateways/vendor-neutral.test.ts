import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The platform speaks devices only through drivers (driver/driver.ts): no vendor's codes, field
// names, push kinds, port formats or SIM state codes outside that vendor's driver files. This reads
// every source file of the server, the contract and the web app (tests and test helpers excepted:
// they play the devices).

const ROOT = join(import.meta.dirname, '..', '..', '..', '..', '..');
const SCANNED = ['apps/server/src', 'packages/contract/src', 'apps/web/src'];

/** What only a vendor's own driver may write, and the files that are that driver. */
const VENDORS: { name: string; owns: RegExp; words: RegExp[] }[] = [
  {
    name: 'Ejoin',
    owns: /\/driver\/(ejoin[^/]*|registry)\.ts$/,
    words: [
      // Ejoin's HTTP API (goip_send_sms.html, goip_get_status.html…), not GoIP boxes (below).
      /goip_[a-z_]+\.html/i,
      /\bdev-status\b/,
      /\bport-status\b/,
      /\brecv-sms\b/,
      /\bstatus-report\b/,
      /\bsms_url\b/,
      /\bsr_url\b/,
      /\bsmstype\b/,
      /\bEjoinDriver\b/,
      /N\.SS/,
      // Cutting the box's port number out of a slot key (in code or in SQL).
      /\.split\(['"]\.['"]\)\[0\]/,
      /split_part\([^)]*port/,
      // A SIM state written or compared as a number is the box's `st` code (the platform's are words).
      /\bstate\b\s*(?:===?|!==?|<>|<=?|>=?|=|IN\s*\(|:)\s*\(?\s*-?\d/i,
      /\b(?:SIM_STATE_TEXT|isUsableSimState|isBlockedSimState)\(\s*\d/,
      /\bst\b\s*(?:===?|!==?|:)\s*\d/,
    ],
  },
  {
    name: 'SMSGate',
    // Its phone driver, and the SMSGate-compatible API for programs (it speaks SMSGate on purpose:
    // its routes, the webhooks' SMSGate format, their contract).
    owns: /\/driver\/(smsgate[^/]*|registry)\.ts$|\/modules\/smsgate-api\/|\/webhooks\/events\.ts$|\/smsgate-api\.ts$|\/smsgateApi\.ts$/,
    words: [
      /\bsms:(received|sent|delivered|failed)\b/,
      /\bsystem:ping\b/,
      /\bx-signature\b/i,
      /\bx-timestamp\b/i,
      /\bwithDeliveryReport\b/,
      /\bSmsGateDriver\b/,
    ],
  },
  {
    name: 'GoIP',
    // Its driver; the platform knows the kind by name only (its port setting, its listener).
    owns: /\/driver\/(goip[^/]*|registry)\.ts$/,
    words: [
      /\brecvid\b/,
      /\bsendid\b/,
      /\btelid\b/,
      /\bsms_no\b/,
      /\bGSM_LOGOUT\b/,
      /\berrorstatus\b/,
      /\bgsm_status\b/,
      /\bUSSDEXIT\b/,
      /\bRECEIVE:/,
      /\bDELIVER:/,
      /\bGoipDriver\b/,
      // Its web pages (the web mode).
      /\bsend_status\.xml\b/,
      /\bsms_inbox\b/,
      /\bsms_row_insert\b/,
      /\bgsm_cur_oper\b/,
      /\bGoipWeb\b/,
    ],
  },
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'test' && name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
      out.push(path);
    }
  }
  return out;
}

const files = SCANNED.flatMap((d) => sourceFiles(join(ROOT, d))).map((f) => relative(ROOT, f));

describe('no vendor names outside the drivers', () => {
  it('scans the server, the contract and the web app', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('apps/server/src/modules/messaging/dispatch.service.ts');
    expect(files).toContain('apps/web/src/pages/gateway-manager/sim-text.ts');
  });

  for (const vendor of VENDORS) {
    it(`${vendor.name} codes, fields and port formats stay in its driver`, () => {
      const found: string[] = [];
      for (const file of files) {
        if (vendor.owns.test(`/${file}`)) continue;
        const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
        lines.forEach((line, i) => {
          for (const word of vendor.words) {
            if (word.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
          }
        });
      }
      expect(found).toEqual([]);
    });
  }

  it('the check itself finds a vendor word', () => {
    const ejoin = VENDORS[0]!;
    expect(ejoin.words.some((w) => w.test("tasks.push({ from: a.port.split('.')[0] })"))).toBe(true);
    expect(ejoin.words.some((w) => w.test("body: { type: 'recv-sms' }"))).toBe(true);
    for (const line of [
      'sim.state IN (3, 4, 15)',
      'if (e.state === 0) return;',
      '  state: 3,',
      'WHERE state <> 0',
    ])
      expect(
        ejoin.words.some((w) => w.test(line)),
        line,
      ).toBe(true);
    expect(ejoin.words.some((w) => w.test("sim.state IN ('ready', 'busy')"))).toBe(false);
    expect(VENDORS[1]!.words.some((w) => w.test("if (event === 'sms:received')"))).toBe(true);
  });
});
