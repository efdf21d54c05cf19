import { ADMIN_ROLE } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import type { TallyTable } from '../../db/tallies.ts';

export interface UserRow {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  roles: string[];
  status: 'Active' | 'Inactive';
  /** Exact decimal text. */
  balance: string;
  created_at: Date;
  token_version: number;
}

const USER_COLUMNS =
  'id, username, email, password_hash, roles, status, round(balance, greatest(2, scale(trim_scale(balance))))::text AS balance, created_at, token_version';

export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  return (await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]))[0];
}

/** The users among `ids` (lowercase), by id, in one statement; `activeOnly` leaves out Inactive ones. */
export async function findUsersByIds(
  q: Queryable,
  ids: string[],
  activeOnly: boolean,
): Promise<Map<string, UserRow>> {
  const rows = await q.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE id = ANY($1::uuid[]) AND ($2 OR status = 'Active')`,
    [ids, !activeOnly],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export async function findUserByUsername(q: Queryable, username: string): Promise<UserRow | undefined> {
  return (await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE username = $1`, [username]))[0];
}

/** The user whose username or email is `login` (lowercase; usernames hold no `@`, so at most one). */
export async function findUserByLogin(q: Queryable, login: string): Promise<UserRow | undefined> {
  return (
    await q.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE username = $1 OR email = $1 ORDER BY (username = $1) DESC LIMIT 1`,
      [login],
    )
  )[0];
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

/** Sets a new password and ends every session signed before (returns the new token version). */
export async function updatePasswordHash(q: Queryable, id: string, hash: string): Promise<number> {
  const rows = await q.query<{ token_version: number }>(
    'UPDATE users SET password_hash = $2, token_version = token_version + 1 WHERE id = $1 RETURNING token_version',
    [id, hash],
  );
  return rows[0]!.token_version;
}

export async function adminExists(q: Queryable): Promise<boolean> {
  const rows = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE $1 = ANY(roles)`, [
    ADMIN_ROLE,
  ]);
  return (rows[0]?.n ?? 0) > 0;
}

/** Usernames of these users, by id (admin lists). */
export async function usernamesByIds(q: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<{ id: string; username: string }>(
    'SELECT id, username FROM users WHERE id = ANY($1::uuid[])',
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, r.username]));
}

/** Ids of the users whose username contains `text` (case-insensitive; admin list searches). */
export async function userIdsMatching(q: Queryable, text: string): Promise<string[]> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // ILIKE (not lower() LIKE): the username's trigram index answers it (docs/architecture.md#paged-lists).
  const rows = await q.query<{ id: string }>('SELECT id FROM users WHERE username ILIKE $1', [pattern]);
  return rows.map((r) => r.id);
}

/** How many accounts there are, from the maintained tally (migration 030). */
export async function userCount(q: Queryable): Promise<number> {
  return (await q.query<{ n: number }>('SELECT coalesce(sum(users), 0)::int AS n FROM user_tallies'))[0]!.n;
}

/** The users tally (migration 030), folded by the users-tallies job. */
export const USER_TALLIES: TallyTable[] = [{ table: 'user_tallies', keys: [], values: ['users', 'active'] }];
