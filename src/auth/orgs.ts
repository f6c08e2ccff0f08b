// Organisations and their members. Access is by membership: a non-member is told "not found", so the
// dashboard never confirms that another organisation's id exists; names are unique per user, never globally,
// so a taken name never reveals another customer's organisation either.
import { ToolDexError, notFound } from '../errors.ts';
import type { Queryable, Store } from '../store/index.ts';
import { iso } from './dates.ts';
import { newId } from './ids.ts';
import type { Member, Organisation } from './types.ts';

const ORG_ID = /^org_[A-Za-z0-9_-]{12}$/;

interface OrgRow { id: string; name: string; created_at: unknown; role?: string }
const toOrg = (row: OrgRow): Organisation => ({ id: row.id, name: row.name, createdAt: iso(row.created_at), ...(row.role ? { role: row.role } : {}) });

const nameTaken = (name: string, byOperator: boolean) => new ToolDexError('org_name_taken', 409, byOperator
  ? `An organisation named "${name}" already exists; pick another name.`
  : `You already have an organisation named "${name}"; pick another name.`, { field: 'name' });

export async function createOrg(store: Store, name: string, ownerId?: string): Promise<Organisation> {
  try {
    return await store.transaction(async (tx) => {
      // Among the user's own organisations, including those joined by invite (the unique index covers only those
      // the user created): two with one name in one organisation picker would be indistinguishable.
      if (ownerId) {
        const [mine] = await tx.query(`select 1 from organisations o join memberships m on m.org_id = o.id
          where m.user_id = $1 and lower(o.name) = lower($2)`, [ownerId, name]);
        if (mine) throw nameTaken(name, false);
      }
      const [row] = await tx.query<OrgRow>('insert into organisations (id, name, created_by) values ($1, $2, $3) returning *',
        [newId('org'), name, ownerId ?? null]);
      if (!row) throw new Error('organisation insert returned no row');
      if (ownerId) await tx.query("insert into memberships (org_id, user_id, role) values ($1, $2, 'owner')", [row.id, ownerId]);
      return toOrg({ ...row, role: ownerId ? 'owner' : undefined });
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw nameTaken(name, !ownerId);
    throw error;
  }
}

/**
 * For operators (CLI), who see every organisation: the one with this id (org_…) or this name. Names repeat across
 * customers, so a name several organisations share is refused with their ids rather than guessed.
 */
export async function findOrgByName(db: Queryable, nameOrId: string): Promise<Organisation | undefined> {
  const rows = await db.query<OrgRow & { owner: string | null }>(`select o.*, u.email as owner from organisations o
    left join users u on u.id = o.created_by where o.id = $1 or lower(o.name) = lower($1) order by o.created_at`, [nameOrId]);
  const byId = rows.find((row) => row.id === nameOrId);
  if (byId) return toOrg(byId);
  if (rows.length > 1) {
    const which = rows.map((row) => `${row.id} (${row.owner ? `owner ${row.owner}` : 'created by an operator'})`).join(', ');
    throw new ToolDexError('org_name_ambiguous', 409,
      `${rows.length} organisations are named "${nameOrId}": ${which}; pass --org with the id.`, { ids: rows.map((row) => row.id) });
  }
  return rows[0] ? toOrg(rows[0]) : undefined;
}

/** For operators (CLI): the named organisation, created without members when it does not exist yet. */
export async function ensureOrg(store: Store, name: string): Promise<Organisation> {
  const existing = await findOrgByName(store, name);
  if (existing) return existing;
  if (ORG_ID.test(name)) throw notFound(`No organisation ${name}; \`tooldex keys list\` shows the organisations of existing keys.`);
  try {
    return await createOrg(store, name);
  } catch (error) {
    const raced = await findOrgByName(store, name); // another process created it meanwhile
    if (raced) return raced;
    throw error;
  }
}

export async function orgsOf(db: Queryable, userId: string): Promise<Organisation[]> {
  const rows = await db.query<OrgRow>(`select o.*, m.role from organisations o join memberships m on m.org_id = o.id
    where m.user_id = $1 order by lower(o.name)`, [userId]);
  return rows.map(toOrg);
}

export async function requireMember(db: Queryable, orgId: string, userId: string): Promise<Organisation> {
  const [row] = await db.query<OrgRow>(`select o.*, m.role from organisations o join memberships m on m.org_id = o.id
    where o.id = $1 and m.user_id = $2`, [orgId, userId]);
  if (!row) throw notFound(`No organisation ${orgId} among yours; pick one from the organisation list.`);
  return toOrg(row);
}

export async function membersOf(db: Queryable, orgId: string): Promise<Member[]> {
  const rows = await db.query<{ user_id: string; email: string; role: string; created_at: unknown }>(
    `select m.user_id, u.email, m.role, m.created_at from memberships m join users u on u.id = m.user_id
      where m.org_id = $1 order by m.created_at`, [orgId]);
  return rows.map((row) => ({ userId: row.user_id, email: row.email, role: row.role, joinedAt: iso(row.created_at) }));
}
