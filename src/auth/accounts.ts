// Dashboard accounts: sign-up, sign-in (throttled, scrypt), and cookie sessions stored only as hashes.
// Sign-in answers "invalid credentials" alike for an unknown email and a wrong password, at the same cost.
import { ToolDexError } from '../errors.ts';
import type { Queryable } from '../store/index.ts';
import { iso } from './dates.ts';
import { newId, newToken } from './ids.ts';
import { hashSecret } from './key-format.ts';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-throttle.ts';
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import type { NewSession, SessionInfo, User } from './types.ts';

export const SESSION_TTL_MS = 7 * 24 * 3600_000;

interface UserRow { id: string; email: string; password_hash: string; created_at: unknown }
const toUser = (row: UserRow): User => ({ id: row.id, email: row.email, createdAt: iso(row.created_at) });

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export async function signUp(db: Queryable, email: string, password: string): Promise<User> {
  const hash = await hashPassword(password);
  try {
    const [row] = await db.query<UserRow>('insert into users (id, email, password_hash) values ($1, $2, $3) returning *',
      [newId('usr'), email, hash]);
    if (!row) throw new Error('user insert returned no row');
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ToolDexError('email_taken', 409, `An account for ${email} already exists; sign in instead.`, { field: 'email' });
    }
    throw error;
  }
}

export async function signIn(db: Queryable, email: string, password: string, address: string): Promise<User> {
  await assertLoginAllowed(db, email, address);
  const [row] = await db.query<UserRow>('select * from users where lower(email) = lower($1)', [email]);
  const ok = await verifyPassword(password, row?.password_hash ?? await dummyHash());
  if (!row || !ok) {
    await recordLoginFailure(db, email, address);
    throw new ToolDexError('invalid_credentials', 401, 'Email or password is wrong.');
  }
  await clearLoginFailures(db, email);
  return toUser(row);
}

export async function createSession(db: Queryable, userId: string): Promise<NewSession> {
  const token = newToken();
  const csrfToken = newToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db.query('insert into auth_sessions (token_hash, user_id, csrf_token, expires_at) values ($1, $2, $3, $4)',
    [hashSecret(token), userId, csrfToken, expiresAt]);
  const session = await findSession(db, token);
  if (!session) throw new Error('session vanished after insert');
  return { ...session, token };
}

export async function findSession(db: Queryable, token: string): Promise<SessionInfo | undefined> {
  const [row] = await db.query<UserRow & { csrf_token: string; expires_at: unknown }>(
    `select u.*, s.csrf_token, s.expires_at from auth_sessions s join users u on u.id = s.user_id
      where s.token_hash = $1 and s.expires_at > now()`, [hashSecret(token)]);
  return row ? { user: toUser(row), csrfToken: row.csrf_token, expiresAt: iso(row.expires_at) } : undefined;
}

export async function endSession(db: Queryable, token: string): Promise<void> {
  await db.query('delete from auth_sessions where token_hash = $1 or expires_at < now()', [hashSecret(token)]);
}
