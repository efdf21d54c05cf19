import type { Queryable } from '../../../db/db.ts';

// The sandbox provider's state (its own table, owned by the payments module).

export interface SandboxInvoice {
  id: string;
  orderId: string;
  amount: string;
  successUrl: string;
  cancelUrl: string;
  status: string;
  paid: string | null;
  updatedAt: Date;
}

const COLUMNS = `id, order_id AS "orderId", amount::text AS amount, success_url AS "successUrl",
  cancel_url AS "cancelUrl", status, paid::text AS paid, updated_at AS "updatedAt"`;

export async function insertSandboxInvoice(
  q: Queryable,
  inv: { id: string; orderId: string; amount: string; successUrl: string; cancelUrl: string; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO sandbox_invoices (id, order_id, amount, success_url, cancel_url, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)`,
    [inv.id, inv.orderId, inv.amount, inv.successUrl, inv.cancelUrl, inv.at],
  );
}

export async function findSandboxInvoice(q: Queryable, id: string): Promise<SandboxInvoice | undefined> {
  const rows = await q.query<SandboxInvoice>(`SELECT ${COLUMNS} FROM sandbox_invoices WHERE id = $1`, [id]);
  return rows[0];
}

/** Records the payment of a still unpaid invoice; undefined when it was paid already. */
export async function paySandboxInvoice(
  q: Queryable,
  p: { id: string; status: string; paid: string; at: Date },
): Promise<SandboxInvoice | undefined> {
  const rows = await q.query<SandboxInvoice>(
    `UPDATE sandbox_invoices SET status = $2, paid = $3, updated_at = $4
      WHERE id = $1 AND status = 'waiting'
      RETURNING ${COLUMNS}`,
    [p.id, p.status, p.paid, p.at],
  );
  return rows[0];
}
