// The third-party API's error shape: `{"message": "…"}`.
import type { SimReply } from '@simdock/sim-kit';

export function error(status: number, message: string): SimReply {
  return { status, json: { message } };
}

export function notFound(): SimReply {
  return error(404, 'Not Found');
}
