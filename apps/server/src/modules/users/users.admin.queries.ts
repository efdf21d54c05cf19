import { ADMIN_ROLE, type UserSortField } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import { type KeyColumn, keysetPage, type ListPage, type PageRequest } from '../../db/paging.ts';
import type { UserRow } from './users.queries.ts';

// The User Manager's SQL, on the users table only (balances are billing's to write).

const COLUMNS =
  'id, username, email, password_hash, roles, status, round(balance, greatest(2, scale(trim_scale(balance))))::text AS balance, created_at, token_version';

/**
 * Each sort's key: the column (qualified, so the numeric balance is sorted, not its text in the
 * answer), then the unique username. Roles sort as the array itself, which an index can hold.
 */
const SORT_KEY: Record<UserSortField, KeyColumn[]> = {
  username: [{ expr: 'users.username', type: 'text' }],
  email: [{ expr: 'users.email', type: 'text' }],
  roles: [
    { expr: 'users.roles', type: 'text[]' },
    { expr: 'users.username', type: 'text' },
  ],
  status: [
    { expr: 'users.status', type: 'text' },
    { expr: 'users.username', type: 'text' },
  ],
  balance: [
    { expr: 'users.balance', type: 'numeric' },
    { expr: 'users.username', type: 'text' },
  ],
  createdAt: [
    { expr: 'users.created_at', type: 'timestamptz' },
    { expr: 'users.username', type: 'text' },
  ],
};

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * User Manager's list, paged by key (docs/architecture.md#paged-lists): each sort walks its own index;
 * the search looks inside usernames and emails by their trigram indexes.
 */
export async function listUsersPage(
  q: Queryable,
  o: { search: string; sort: UserSortField; dir: 'asc' | 'desc' },
  req: PageRequest,
): Promise<ListPage<UserRow>> {
  const where = o.search ? ['(users.username ILIKE $1 OR users.email ILIKE $1)'] : [];
  return keysetPage<UserRow>(
    q,
    {
      select: COLUMNS,
      from: 'FROM users',
      where,
      params: o.search ? [likePattern(o.search)] : [],
      keys: SORT_KEY[o.sort],
      desc: o.dir === 'desc',
    },
    req,
  );
}

export async function userCounts(
  q: Queryable,
  since: Date,
): Promise<{ total: number; active: number; recent: number }> {
  // All and active from the maintained tally (migration 030); the recent ones from the index on created_at.
  const rows = await q.query<{ total: number; active: number; recent: number }>(
    `SELECT coalesce(sum(users), 0)::int AS total, coalesce(sum(active), 0)::int AS active,
            (SELECT count(*) FROM users WHERE created_at >= $1)::int AS recent
       FROM user_tallies`,
    [since],
  );
  return rows[0]!;
}

/**
 * Locks every active administrator's row, in id order, and returns their ids. Taken first by every
 * admin change to users, so two concurrent demotions serialize (and cannot deadlock) and the
 * "at least one active Admin9" check sees the other's committed result.
 */
export async function lockActiveAdmins(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM users WHERE $1 = ANY(roles) AND status = 'Active' ORDER BY id FOR UPDATE`,
    [ADMIN_ROLE],
  );
  return rows.map((r) => r.id);
}

export async function lockUser(q: Queryable, id: string): Promise<UserRow | undefined> {
  return (await q.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [id]))[0];
}

/** Which of username / email another user already has. */
export async function clashWith(
  q: Queryable,
  u: { username: string; email: string; exceptId: string | null },
): Promise<'username' | 'email' | undefined> {
  const rows = await q.query<{ username: string; email: string }>(
    `SELECT username, email FROM users WHERE (username = $1 OR email = $2) AND ($3::uuid IS NULL OR id <> $3)
      LIMIT 2`,
    [u.username, u.email, u.exceptId],
  );
  if (rows.some((r) => r.username === u.username)) return 'username';
  if (rows.length > 0) return 'email';
  return undefined;
}

export async function insertAdminUser(
  q: Queryable,
  u: {
    username: string;
    email: string;
    passwordHash: string;
    roles: string[];
    status: 'Active' | 'Inactive';
    at: Date;
  },
): Promise<UserRow> {
  const rows = await q.query<UserRow>(
    `INSERT INTO users (username, email, password_hash, roles, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [u.username, u.email, u.passwordHash, u.roles, u.status, u.at],
  );
  return rows[0]!;
}

/** Profile, roles and status; a new password hash when given; `endSessions` bumps the token version. */
export async function updateAdminUser(
  q: Queryable,
  id: string,
  u: {
    username: string;
    email: string;
    roles: string[];
    status: 'Active' | 'Inactive';
    passwordHash: string | null;
    endSessions: boolean;
  },
): Promise<void> {
  await q.query(
    `UPDATE users SET username = $2, email = $3, roles = $4, status = $5,
            password_hash = COALESCE($6, password_hash),
            token_version = token_version + CASE WHEN $7 THEN 1 ELSE 0 END
      WHERE id = $1`,
    [id, u.username, u.email, u.roles, u.status, u.passwordHash, u.endSessions],
  );
}

/** new − current balance, exactly (decimal text, signed), computed in SQL. */
export async function balanceDelta(q: Queryable, id: string, newBalance: string): Promise<string> {
  const rows = await q.query<{ delta: string }>(
    'SELECT ($2::numeric - balance)::text AS delta FROM users WHERE id = $1',
    [id, newBalance],
  );
  return rows[0]!.delta;
}

export async function deactivateUser(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE users SET status = 'Inactive', token_version = token_version + 1 WHERE id = $1`, [
    id,
  ]);
}

export async function deleteUserRow(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM users WHERE id = $1', [id]);
}
