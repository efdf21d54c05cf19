import type { Queryable } from '../../db/db.ts';

export interface UserRow {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  roles: string[];
  status: 'Active' | 'Inactive';
  balance: number;
  created_at: Date;
}

const USER_COLUMNS =
  'id, username, email, password_hash, roles, status, balance::float8 AS balance, created_at';

export async function findActiveUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  const rows = await q.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE id = $1 AND status = 'Active'`,
    [id],
  );
  return rows[0];
}

export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  return (await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]))[0];
}

export async function findUserByUsername(q: Queryable, username: string): Promise<UserRow | undefined> {
  return (await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE username = $1`, [username]))[0];
}

/** Inserts a user; returns undefined when the username or email is taken (and which one). */
export async function insertUser(
  q: Queryable,
  u: { username: string; email: string; passwordHash: string; roles: string[] },
): Promise<{ row?: UserRow; taken?: 'username' | 'email' }> {
  const rows = await q.query<UserRow>(
    `INSERT INTO users (username, email, password_hash, roles) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
    [u.username, u.email, u.passwordHash, u.roles],
  );
  if (rows[0]) return { row: rows[0] };
  const clash = await q.query<{ username: string }>(
    'SELECT username FROM users WHERE username = $1 OR email = $2 LIMIT 1',
    [u.username, u.email],
  );
  return { taken: clash[0]?.username === u.username ? 'username' : 'email' };
}

export async function updatePasswordHash(q: Queryable, id: string, hash: string): Promise<void> {
  await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, hash]);
}

export async function adminExists(q: Queryable): Promise<boolean> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users WHERE 'Admin9' = ANY(roles)`,
  );
  return (rows[0]?.n ?? 0) > 0;
}

/** Moves money in SQL: one statement, guarded so the balance never goes negative, plus its ledger row. */
export async function changeBalance(
  q: Queryable,
  userId: string,
  amount: number | string,
  kind: 'topup' | 'order_charge' | 'refund' | 'admin_adjustment' | 'demo_credit',
  ref: string | null,
  at: Date,
): Promise<number | undefined> {
  const rows = await q.query<{ balance: number }>(
    `WITH changed AS (
       UPDATE users SET balance = balance + $2::numeric
        WHERE id = $1 AND balance + $2::numeric >= 0
        RETURNING id, balance
     ), entry AS (
       INSERT INTO ledger (user_id, amount, kind, ref, created_at)
       SELECT id, $2::numeric, $3, $4, $5 FROM changed
     )
     SELECT balance::float8 AS balance FROM changed`,
    [userId, String(amount), kind, ref, at],
  );
  return rows[0]?.balance;
}
