// Invites by link: a one-time token (stored hashed) for one email address, valid for a week.
// Accepting checks, in order: exists, not used, not expired, addressed to the signed-in user.
import { ToolDexError, notFound } from '../errors.ts';
import type { Store } from '../store/index.ts';
import { iso } from './dates.ts';
import { newId, newToken } from './ids.ts';
import { hashSecret } from './key-format.ts';
import type { Invite, Organisation, User } from './types.ts';

export const INVITE_TTL_MS = 7 * 24 * 3600_000;

export async function createInvite(store: Store, orgId: string, email: string, invitedBy: string): Promise<Invite> {
  const token = newToken();
  const id = newId('inv');
  const expiresAt = new Date(Date.now() + INVITE_TTL_MS);
  await store.query('insert into invites (token_hash, id, org_id, email, created_by, expires_at) values ($1, $2, $3, $4, $5, $6)',
    [hashSecret(token), id, orgId, email, invitedBy, expiresAt]);
  return { id, orgId, email, token, expiresAt: iso(expiresAt) };
}

export async function acceptInvite(store: Store, token: string, user: User): Promise<Organisation> {
  return store.transaction(async (tx) => {
    const [invite] = await tx.query<{ id: string; org_id: string; email: string; used_at: unknown; expired: boolean }>(
      `select id, org_id, email, used_at, expires_at <= now() as expired from invites where token_hash = $1 for update`,
      [hashSecret(token)]);
    if (!invite) throw notFound('This invite link is unknown; ask for a new one.');
    if (invite.used_at) throw new ToolDexError('invite_used', 410, 'This invite link was already used; ask for a new one.');
    if (invite.expired) throw new ToolDexError('invite_expired', 410, 'This invite link has expired; ask for a new one.');
    if (invite.email.toLowerCase() !== user.email.toLowerCase()) {
      throw new ToolDexError('invite_wrong_account', 403,
        `This invite is for ${invite.email}; sign in with that address to accept it.`);
    }
    await tx.query('update invites set used_at = now(), used_by = $2 where id = $1', [invite.id, user.id]);
    await tx.query("insert into memberships (org_id, user_id, role) values ($1, $2, 'member') on conflict do nothing",
      [invite.org_id, user.id]);
    const [org] = await tx.query<{ id: string; name: string; created_at: unknown }>('select * from organisations where id = $1', [invite.org_id]);
    if (!org) throw notFound('The organisation of this invite no longer exists.');
    return { id: org.id, name: org.name, createdAt: iso(org.created_at), role: 'member' };
  });
}
