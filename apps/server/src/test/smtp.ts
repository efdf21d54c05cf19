import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One mail the test SMTP server received, parsed. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface TestSmtp {
  /** `smtp://user:pass@127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Waits for the n-th mail (1-based) to arrive. */
  waitForMail(n?: number, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (a random port) that keeps what it receives. It asks for the
 * login in the URL (plain auth without TLS, allowed on loopback) and offers no STARTTLS.
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'mailer' && auth.password === 'mail-secret') cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, _session, cb) {
      simpleParser(stream)
        .then((m) => {
          const addresses = (a: typeof m.to) =>
            (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => v.address ?? ''));
          mails.push({
            from: m.from?.text ?? '',
            to: addresses(m.to),
            subject: m.subject ?? '',
            text: m.text ?? '',
            html: typeof m.html === 'string' ? m.html : '',
          });
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://mailer:mail-secret@127.0.0.1:${port}`,
    mails,
    async waitForMail(n = mails.length + 1, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (mails.length < n) {
        if (Date.now() > until) throw new Error(`no mail number ${n} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return mails[n - 1]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
