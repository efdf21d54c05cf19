import { endpoints } from '@simdock/contract';
import { connect, type Pdu, type PduOptions, type Session } from 'smpp';
import { smppPorts } from '../modules/smpp/index.ts';
import { userWithApiKey } from './fixtures.ts';
import type { TestServer } from './harness.ts';

// The SMPP tests' shared steps, with the npm `smpp` package as the independent client.

/** A user with a default key (every scope), `balance`, and that key's SMPP credential. */
export async function smppUser(s: TestServer, balance = 5) {
  const u = await userWithApiKey(s, balance);
  const keys = await s.api(endpoints.apikey.keys, { token: u.token });
  const keyId: string = keys.body.keys[0]!.id;
  const made = await s.api(endpoints.smpp.password, {
    body: { id: keyId },
    token: u.token,
    headers: await s.reauth(u),
  });
  if (made.status !== 200) throw new Error(`SMPP password: ${made.status} ${JSON.stringify(made.body)}`);
  return { ...u, keyId, systemId: made.body.systemId as string, smppPassword: made.body.password as string };
}

/** A client connected to the server's plain SMPP port (or `port`), kept in `sessions` to close after. */
export async function smppClient(s: TestServer, sessions: Session[], port = smppPorts(s.ctx).plain!) {
  const c = await new Promise<Session>((resolve, reject) => {
    const session = connect({ host: '127.0.0.1', port }, () => resolve(session));
    session.on('error', reject);
  });
  sessions.push(c);
  return c;
}

type Command =
  | 'bind_transceiver'
  | 'bind_transmitter'
  | 'bind_receiver'
  | 'submit_sm'
  | 'query_sm'
  | 'enquire_link';

/** Sends one PDU and resolves with its response. */
export const ask = (c: Session, command: Command, o: PduOptions = {}) =>
  new Promise<Pdu>((resolve) => c[command](o, resolve));
