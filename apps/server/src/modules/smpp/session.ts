import { randomBytes, randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { hostname } from 'node:os';
import { CHAT_SMS_MAX_CHARS } from '@simdock/contract';
import type { AppContext, AuthUser } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { apiKeyUse } from '../apikey/index.ts';
import { apiGetMessage, apiSend, EXPIRED_REASON } from '../messaging/index.ts';
import {
  deleteOutbox,
  deliverOf,
  isSmppMessage,
  nextOutbox,
  recordSmppMessage,
  smppMarker,
} from './outbox.ts';
import {
  type BindBody,
  CMD,
  cstring,
  MalformedPdu,
  MESSAGE_STATE,
  type Pdu,
  parseValidity,
  type QueryBody,
  RESP,
  readBind,
  readQuery,
  readSubmit,
  STATUS,
  type SubmitBody,
  splitPdus,
  TLV,
  writePdu,
} from './pdu.ts';
import { type SmppState, smppState } from './ports.ts';
import { accountBySystemId, claimBind, releaseBind, type SmppAccountRow } from './smpp.queries.ts';
import { auditBindRefused, checkBind, withUserLimits } from './smpp.service.ts';
import { decodeText, isDataCoding, type PartInfo, splitUdh, validPart } from './text.ts';
import { TokenBucket } from './token-bucket.ts';

/** Refused binds after which the connection is closed. */
const MAX_FAILED_BINDS = 3;
/** The system_id the server answers in bind responses. */
const SERVER_ID = 'SimDock';

type Mode = 'transmitter' | 'receiver' | 'transceiver';
const BINDS: Record<number, Mode> = {
  [CMD.bind_transmitter]: 'transmitter',
  [CMD.bind_receiver]: 'receiver',
  [CMD.bind_transceiver]: 'transceiver',
};

interface Bound {
  /** Its row in smpp_binds. */
  bindId: string;
  mode: Mode;
  account: SmppAccountRow;
  user: AuthUser;
  /** When the key was last found usable (clock ms): checked again before a submit a minute later. */
  checkedAt: number;
}

/** A deliver_sm unanswered this long ends the round (the row stays and goes out again). */
const DELIVER_TIMEOUT_MS = 30_000;
/** A receiving bind looks at its outbox at least this often, besides on each event. */
const OUTBOX_POLL_MS = 10_000;

/** SMPP time (YYMMDDhhmmss, tenths, quarter hours from UTC, sign): UTC. */
const smppTime = (d: Date) => `${d.toISOString().replace(/[-:T]/g, '').slice(2, 14)}000+`;

/** A message's state for query_sm. */
const STATE_OF: Record<string, number> = {
  queued: MESSAGE_STATE.ENROUTE,
  sending: MESSAGE_STATE.ENROUTE,
  sent: MESSAGE_STATE.ENROUTE,
  delivered: MESSAGE_STATE.DELIVERED,
  failed: MESSAGE_STATE.UNDELIVERABLE,
  cancelled: MESSAGE_STATE.DELETED,
};

/** A bound key is checked again (deleted, expired, account inactive) at most this often. */
const KEY_RECHECK_MS = 60_000;

/** The SMPP status of a refused send (messaging's domain errors), and whether it is worth a log line. */
function statusOf(err: unknown): number {
  if (err instanceof DomainError) {
    if (err.code === 'bad_input' && err.field === 'to') return STATUS.ESME_RINVDSTADR;
    if (err.code === 'bad_input' && err.field === 'text') return STATUS.ESME_RINVMSGLEN;
    // No balance, the day's limit, every recipient opted out, sending turned off, a bad character.
    return STATUS.ESME_RSUBMITFAIL;
  }
  return STATUS.ESME_RSYSERR;
}

/** One client connection: binds, submits, keeps the link alive, closes on unbind or a bad PDU. */
export class SmppSession {
  private buf: Buffer = Buffer.alloc(0);
  private bound: Bound | undefined;
  private binding = false;
  private failedBinds = 0;
  /** The session ends once the submit in hand is answered (its key is no longer usable). */
  private endAfterReply = false;
  private outstanding = 0;
  private lastHeard = Date.now();
  /** The server's enquire_link went out in this quiet spell (one per spell). */
  private enquired = false;
  private sequence = 0;
  private closed = false;
  /** Requests sent by the server awaiting their response, by sequence number. */
  private readonly waiting = new Map<number, (status: number | undefined) => void>();
  private pumping = false;
  private pumpAgain = false;
  private lastPoll = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly state: SmppState;
  private readonly timing: SmppState['timing'];
  readonly ip: string;

  constructor(
    private readonly ctx: AppContext,
    private readonly socket: Socket,
    private readonly tls: boolean,
  ) {
    this.state = smppState(ctx);
    this.ip = socket.remoteAddress ?? '';
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => this.ctx.log.debug({ err, ip: this.ip }, 'smpp socket error'));
    socket.on('close', () => this.onClose());
    this.timing = this.state.timing;
    this.timer = setInterval(() => this.checkIdle(), this.timing.tickMs);
    this.timer.unref();
  }

  /** Ends the connection (the server stopping). */
  close(): void {
    this.socket.destroy();
  }

  private checkIdle(): void {
    const { enquireAfterMs, idleCloseMs } = this.timing;
    const quiet = Date.now() - this.lastHeard;
    if (quiet >= idleCloseMs) {
      this.ctx.log.info(
        { systemId: this.bound?.account.system_id, ip: this.ip },
        'smpp session idle: closed',
      );
      this.send(writePdu(CMD.unbind, 0, this.nextSequence()));
      this.socket.end();
      clearInterval(this.timer);
      // A client that never closes its side after the server's unbind.
      setTimeout(() => this.socket.destroy(), 10_000).unref();
    } else if (quiet >= enquireAfterMs && this.bound && !this.enquired) {
      this.enquired = true;
      this.send(writePdu(CMD.enquire_link, 0, this.nextSequence()));
    }
    // A missed event (or a client that refused a row) is caught up here.
    if (Date.now() - this.lastPoll >= OUTBOX_POLL_MS) this.pump();
  }

  /**
   * Sends the account's outbox in id order, one deliver_sm at a time, deleting each row once the
   * client answers it OK; stops at a refusal or a timeout (the row goes out again later).
   */
  pump(): void {
    const bound = this.bound;
    if (!bound || bound.mode === 'transmitter' || this.closed) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.pumpAgain = false;
    this.lastPoll = Date.now();
    void this.drain(bound)
      .catch((err) => this.ctx.log.error({ err, systemId: bound.account.system_id }, 'smpp outbox failed'))
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) this.pump();
      });
  }

  private async drain(bound: Bound): Promise<void> {
    for (;;) {
      const row = await nextOutbox(this.ctx.db, bound.account.api_key_id);
      if (!row || this.closed) return;
      const status = await this.request(CMD.deliver_sm, deliverOf(row));
      if (status !== STATUS.ESME_ROK) {
        this.ctx.log.info(
          { systemId: bound.account.system_id, status: status ?? 'timeout', messageId: row.message_id },
          'smpp deliver_sm not acknowledged: kept for later',
        );
        this.pumpAgain = false;
        return;
      }
      await deleteOutbox(this.ctx.db, row.id);
      if (row.kind === 'receipt') this.ctx.metrics.smppReceipts.inc({ stage: 'sent' });
    }
  }

  /** A request from the server; its response's status, or undefined (no answer in time, closed). */
  private request(commandId: number, body: Buffer): Promise<number | undefined> {
    const sequence = this.nextSequence();
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), DELIVER_TIMEOUT_MS);
      timer.unref();
      const done = (status: number | undefined) => {
        clearTimeout(timer);
        this.waiting.delete(sequence);
        resolve(status);
      };
      this.waiting.set(sequence, done);
      this.send(writePdu(commandId, 0, sequence, body));
    });
  }

  private nextSequence(): number {
    this.sequence = this.sequence >= 0x7fffffff ? 1 : this.sequence + 1;
    return this.sequence;
  }

  private send(pdu: Buffer): void {
    if (!this.closed && this.socket.writable) this.socket.write(pdu);
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const done of [...this.waiting.values()]) done(undefined);
    if (this.bound) {
      const id = this.bound.account.system_id;
      const bindId = this.bound.bindId;
      this.state.bindIds.delete(bindId);
      // A row left by a failure here goes stale and stops counting.
      void releaseBind(this.ctx.db, bindId).catch((err) =>
        this.ctx.log.error({ err, systemId: id }, 'smpp bind row not released'),
      );
      const keyId = this.bound.account.api_key_id;
      const receivers = this.state.receivers.get(keyId);
      receivers?.delete(this);
      if (receivers?.size === 0) this.state.receivers.delete(keyId);
      this.ctx.log.info({ systemId: id, ip: this.ip }, 'smpp session closed');
    }
  }

  private onData(chunk: Buffer): void {
    this.lastHeard = Date.now();
    this.enquired = false;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    let pdus: Pdu[];
    try {
      const split = splitPdus(this.buf);
      pdus = split.pdus;
      this.buf = Buffer.from(split.rest);
    } catch (err) {
      this.malformed(err, 0);
      return;
    }
    for (const pdu of pdus) {
      try {
        this.handle(pdu);
      } catch (err) {
        this.malformed(err, pdu.sequence);
        return;
      }
    }
  }

  /** A PDU that cannot be read: generic_nack, and this session (only) is closed. */
  private malformed(err: unknown, sequence: number): void {
    const log = { ip: this.ip, systemId: this.bound?.account.system_id };
    if (err instanceof MalformedPdu) {
      this.ctx.log.info({ ...log, reason: err.message }, 'smpp malformed PDU: session closed');
    } else {
      this.ctx.log.error({ ...log, err }, 'smpp PDU failed: session closed');
    }
    this.send(writePdu(CMD.generic_nack, STATUS.ESME_RINVCMDLEN, sequence));
    this.socket.end();
    this.buf = Buffer.alloc(0);
  }

  private handle(pdu: Pdu): void {
    const { commandId: id, sequence } = pdu;
    // Bodies are read here, synchronously: a malformed one closes the session (onData).
    if (BINDS[id]) {
      void this.bind(pdu, BINDS[id]!, readBind(pdu.body));
      return;
    }
    switch (id) {
      case CMD.enquire_link:
        this.send(writePdu(CMD.enquire_link | RESP, 0, sequence));
        return;
      case CMD.unbind:
        this.send(writePdu(CMD.unbind | RESP, 0, sequence));
        if (this.bound)
          this.ctx.log.info({ systemId: this.bound.account.system_id, ip: this.ip }, 'smpp unbind');
        this.socket.end();
        return;
      case CMD.submit_sm:
        void this.submit(pdu, readSubmit(pdu.body));
        return;
      case CMD.query_sm:
        void this.query(pdu, readQuery(pdu.body));
        return;
    }
    // Responses to the server's own requests (deliver_sm, enquire_link, unbind) and generic_nack.
    if (id & RESP) {
      this.waiting.get(sequence)?.(pdu.status);
      return;
    }
    this.send(writePdu(CMD.generic_nack, STATUS.ESME_RINVCMDID, sequence));
  }

  private async bind(pdu: Pdu, mode: Mode, body: BindBody): Promise<void> {
    const resp = (status: number) =>
      this.send(
        writePdu(pdu.commandId | RESP, status, pdu.sequence, status ? undefined : cstring(SERVER_ID)),
      );
    if (this.bound || this.binding) return resp(STATUS.ESME_RALYBND);
    this.binding = true;
    try {
      const check = await checkBind(this.ctx, body.systemId, body.password, this.ip);
      const who = { systemId: body.systemId, mode, ip: this.ip, tls: this.tls };
      if (!check.ok) {
        this.ctx.log.info({ ...who, reason: check.reason }, 'smpp bind refused');
        if (check.account) {
          const kind =
            check.status === 'password'
              ? 'wrong password'
              : check.reason.includes('allowed addresses')
                ? 'address not allowed'
                : 'key refused';
          await this.auditRefusal(check.account, kind, check.reason);
        }
        resp(check.status === 'password' ? STATUS.ESME_RINVPASWD : STATUS.ESME_RBINDFAIL);
        // No password guessing on one connection: the third refusal closes it.
        if (++this.failedBinds >= MAX_FAILED_BINDS) this.socket.end();
        return;
      }
      if (this.closed) return;
      // The limit counts the credential's binds in every process (their rows in smpp_binds).
      const now = this.ctx.clock.now();
      const bindId = randomUUID();
      const passed = await claimBind(
        this.ctx.db,
        { id: bindId, apiKeyId: check.account.api_key_id, processId: this.state.processId, host: hostname() },
        check.account.bind_limit,
        now,
        new Date(now.getTime() - this.timing.bindStaleMs),
      );
      if (!passed) {
        this.ctx.log.info(
          { ...who, reason: `bind limit ${check.account.bind_limit} reached` },
          'smpp bind refused',
        );
        await this.auditRefusal(
          check.account,
          'bind limit reached',
          `bind limit ${check.account.bind_limit} reached`,
        );
        return resp(STATUS.ESME_RBINDFAIL);
      }
      if (this.closed) {
        await releaseBind(this.ctx.db, bindId);
        return;
      }
      this.state.bindIds.add(bindId);
      this.bound = {
        bindId,
        mode,
        account: check.account,
        user: check.user,
        checkedAt: this.ctx.clock.now().getTime(),
      };
      this.ctx.log.info({ ...who, userId: check.user.id }, 'smpp bind');
      this.ctx.metrics.smppBinds.inc({ mode });
      resp(STATUS.ESME_ROK);
      if (mode !== 'transmitter') {
        const keyId = check.account.api_key_id;
        const receivers = this.state.receivers.get(keyId) ?? new Set();
        receivers.add(this);
        this.state.receivers.set(keyId, receivers);
        // What was queued while no receiver was bound goes out now, in order.
        this.pump();
      }
    } catch (err) {
      this.ctx.log.error({ err, ip: this.ip }, 'smpp bind failed');
      resp(STATUS.ESME_RBINDFAIL);
    } finally {
      this.binding = false;
    }
  }

  /** An audit failure must not change the bind's answer: it is logged. */
  private async auditRefusal(
    account: SmppAccountRow,
    reason: Parameters<typeof auditBindRefused>[2],
    detail: string,
  ): Promise<void> {
    try {
      await auditBindRefused(this.ctx, account, reason, detail, this.ip);
    } catch (err) {
      this.ctx.log.error({ err, systemId: account.system_id }, 'smpp bind refusal not audited');
    }
  }

  private bucketOf(account: SmppAccountRow): TokenBucket {
    const now = this.ctx.clock.now().getTime();
    let bucket = this.state.buckets.get(account.system_id);
    if (!bucket) {
      bucket = new TokenBucket(account.rate_per_second, now);
      this.state.buckets.set(account.system_id, bucket);
    }
    // Binds that read the limits at different times share the bucket: a changed rate never refills it.
    if (bucket.ratePerSecond !== account.rate_per_second) bucket.setRate(account.rate_per_second);
    return bucket;
  }

  private async submit(pdu: Pdu, body: SubmitBody): Promise<void> {
    const resp = (status: number, messageId?: string) => {
      this.ctx.metrics.smppSubmits.inc({
        outcome: status === STATUS.ESME_ROK ? 'accepted' : `0x${status.toString(16).padStart(2, '0')}`,
      });
      this.send(
        writePdu(
          CMD.submit_sm | RESP,
          status,
          pdu.sequence,
          messageId !== undefined ? cstring(messageId) : undefined,
        ),
      );
    };
    const bound = this.bound;
    if (!bound || bound.mode === 'receiver') return resp(STATUS.ESME_RINVBNDSTS);
    if (this.outstanding >= this.timing.window) return resp(STATUS.ESME_RMSGQFUL);
    if (!this.bucketOf(bound.account).take(this.ctx.clock.now().getTime()))
      return resp(STATUS.ESME_RTHROTTLED);
    this.outstanding++;
    try {
      const outcome = await this.accept(bound, body);
      if (typeof outcome === 'number') resp(outcome);
      else resp(STATUS.ESME_ROK, outcome.messageId);
    } catch (err) {
      const status = statusOf(err);
      const log = {
        systemId: bound.account.system_id,
        reason: err instanceof Error ? err.message : String(err),
      };
      if (status === STATUS.ESME_RSYSERR) this.ctx.log.error({ ...log, err }, 'smpp submit failed');
      else this.ctx.log.info(log, 'smpp submit refused');
      resp(status);
    } finally {
      this.outstanding--;
      if (this.endAfterReply) this.socket.end();
    }
  }

  /**
   * One submit_sm: its text decoded, a part held until its set is complete, a whole message sent
   * through messaging like a REST send. Answers the message id, or an SMPP status.
   */
  private async accept(bound: Bound, body: SubmitBody): Promise<{ messageId: string } | number> {
    const now = this.ctx.clock.now().getTime();
    if (now - bound.checkedAt >= KEY_RECHECK_MS) {
      const use = await apiKeyUse(this.ctx, bound.account.api_key_id, this.ip, 'messaging:send');
      if ('refused' in use) {
        // The key went away under a bound session: it ends here.
        this.ctx.log.info(
          { systemId: bound.account.system_id, ip: this.ip, reason: use.refused },
          'smpp session closed: key no longer usable',
        );
        this.endAfterReply = true;
        return STATUS.ESME_RSUBMITFAIL;
      }
      // An admin's new limits reach bound sessions here (the rate from the next submit).
      const fresh = await accountBySystemId(this.ctx.db, bound.account.system_id);
      if (fresh) bound.account = await withUserLimits(this.ctx, fresh, use.user.id);
      bound.checkedAt = now;
    }
    const validUntil = parseValidity(body.validityPeriod, this.ctx.clock.now());
    if (validUntil === 'invalid') return STATUS.ESME_RINVEXPIRY;
    const to = body.destinationAddr.replace(/^\+/, '');
    if (!/^\d{1,20}$/.test(to)) return STATUS.ESME_RINVDSTADR;
    const dc = body.dataCoding;
    if (!isDataCoding(dc)) {
      this.ctx.log.info(
        { systemId: bound.account.system_id, dataCoding: dc },
        'smpp submit refused: data_coding',
      );
      return STATUS.ESME_RSUBMITFAIL;
    }
    const payload = body.tlvs.get(TLV.message_payload);
    let data = payload && body.shortMessage.length === 0 ? payload : body.shortMessage;
    let part: PartInfo | undefined;
    if (body.esmClass & 0x40) {
      const split = splitUdh(data);
      if (!split) return STATUS.ESME_RINVMSGLEN;
      part = split.part;
      data = split.text;
    }
    const ref = body.tlvs.get(TLV.sar_msg_ref_num);
    const total = body.tlvs.get(TLV.sar_total_segments);
    const seq = body.tlvs.get(TLV.sar_segment_seqnum);
    if (!part && ref?.length === 2 && total?.length === 1 && seq?.length === 1) {
      part = { ref: ref.readUInt16BE(0), total: total[0]!, seq: seq[0]! };
    }
    if (part && part.total > 1) {
      if (!validPart(part)) return STATUS.ESME_RSUBMITFAIL;
      const key = `${bound.account.system_id}|${to}|${part.ref}|${dc}`;
      const whole = this.state.parts.add(key, part, Buffer.from(data), this.ctx.clock.now().getTime());
      if (whole === 'full') return STATUS.ESME_RMSGQFUL;
      // An earlier part is acknowledged at once (a client with a window of 1 waits for it): its id
      // names the part; the part that completes the set answers the message's id.
      if (whole === 'held') return { messageId: `p${randomBytes(8).toString('hex')}` };
      data = whole;
    }
    const text = decodeText(data, dc);
    if (text === undefined || text.length === 0 || text.length > CHAT_SMS_MAX_CHARS)
      return STATUS.ESME_RINVMSGLEN;
    // The marker rides on the send (its client_ref) into messaging's events: receipts and replies.
    const marker = smppMarker({
      apiKeyId: bound.account.api_key_id,
      receipt: (body.registeredDelivery & 0x01) === 1,
      submitMs: this.ctx.clock.now().getTime(),
      sourceAddr: body.sourceAddr,
    });
    const sent = await apiSend(this.ctx, bound.user, { to, text }, marker, {
      validUntil: validUntil ?? undefined,
    });
    const message = sent.messages[0];
    if (!message) return STATUS.ESME_RSUBMITFAIL;
    await recordSmppMessage(this.ctx.db, bound.account.api_key_id, message.id, this.ctx.clock.now());
    return { messageId: message.id };
  }

  /** query_sm: the state of one of the account's own SMPP messages. */
  private async query(pdu: Pdu, body: QueryBody): Promise<void> {
    const resp = (status: number, answer?: Buffer) =>
      this.send(writePdu(CMD.query_sm | RESP, status, pdu.sequence, answer));
    const bound = this.bound;
    if (!bound || bound.mode === 'receiver') return resp(STATUS.ESME_RINVBNDSTS);
    try {
      const id = body.messageId;
      if (!/^o\d{1,18}$/.test(id) || !(await isSmppMessage(this.ctx.db, bound.account.api_key_id, id)))
        return resp(STATUS.ESME_RQUERYFAIL);
      const m = await apiGetMessage(this.ctx, bound.user.id, id);
      const state =
        m.status === 'failed' && m.reason === EXPIRED_REASON
          ? MESSAGE_STATE.EXPIRED
          : (STATE_OF[m.status] ?? MESSAGE_STATE.UNKNOWN);
      const final = state !== MESSAGE_STATE.ENROUTE && m.doneAt ? smppTime(new Date(m.doneAt)) : '';
      resp(STATUS.ESME_ROK, Buffer.concat([cstring(id), cstring(final), Buffer.from([state, 0])]));
    } catch (err) {
      if (!(err instanceof DomainError)) this.ctx.log.error({ err }, 'smpp query_sm failed');
      resp(STATUS.ESME_RQUERYFAIL);
    }
  }
}
