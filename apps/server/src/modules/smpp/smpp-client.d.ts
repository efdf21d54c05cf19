// The npm package `smpp` (no types of its own): the client side the tests drive the server with.
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Socket } from 'node:net';

  export interface Pdu {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    message_id?: string;
    system_id?: string;
    source_addr?: string;
    destination_addr?: string;
    esm_class?: number;
    data_coding?: number;
    short_message?: { message: string | Buffer };
    receipted_message_id?: string;
    message_state?: number;
    final_date?: Date | string;
    /** The response to this request, with the same sequence_number. */
    response(options?: PduOptions): Pdu;
  }

  export interface PduOptions {
    system_id?: string;
    password?: string;
    destination_addr?: string;
    source_addr?: string;
    esm_class?: number;
    data_coding?: number;
    short_message?: Buffer | string;
    message_payload?: Buffer;
    sequence_number?: number;
    registered_delivery?: number;
    validity_period?: string | Date;
    message_id?: string;
  }

  export class Session extends EventEmitter {
    socket: Socket;
    bind_transceiver(options: PduOptions, callback: (pdu: Pdu) => void): boolean;
    bind_transmitter(options: PduOptions, callback: (pdu: Pdu) => void): boolean;
    bind_receiver(options: PduOptions, callback: (pdu: Pdu) => void): boolean;
    query_sm(options: PduOptions, callback: (pdu: Pdu) => void): boolean;
    send(pdu: Pdu): boolean;
    submit_sm(options: PduOptions, callback: (pdu: Pdu) => void): boolean;
    enquire_link(options: PduOptions, callback: (pdu: Pdu) => void): boolean;
    unbind(options: PduOptions, callback: (pdu: Pdu) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  export function connect(
    options: { host: string; port: number; tls?: boolean; rejectUnauthorized?: boolean },
    listener?: () => void,
  ): Session;
}
