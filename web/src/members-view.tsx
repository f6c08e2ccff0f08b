// Settings → Members: who is in the organisation, and invites by link (the link is shown here; no mail is sent).
import { useEffect, useState } from 'preact/hooks';
import { api, type InviteLink, type Member, type Org } from './api.ts';
import { CopyField, DateText, Field, FormError, formatDate, useFormErrors } from './forms.tsx';

export function MembersView({ org }: { org: Org }) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [email, setEmail] = useState('');
  const [invite, setInvite] = useState<InviteLink | null>(null);
  const errors = useFormErrors();

  useEffect(() => {
    setMembers(null);
    setInvite(null);
    api.members(org.id).then((r) => setMembers(r.members), (error) => errors.take(error));
  }, [org.id]);

  const submit = async (event: Event) => {
    event.preventDefault();
    errors.clear();
    try {
      setInvite(await api.invite(org.id, email));
      setEmail('');
    } catch (error) {
      errors.take(error);
    }
  };

  return (
    <section aria-labelledby="members-title">
      <p class="breadcrumb">Settings <span aria-hidden="true">→</span> Members</p>
      <h1 id="members-title">Members</h1>
      <form class="card inline-form" onSubmit={submit} noValidate aria-label="Invite a member">
        <FormError message={errors.form} />
        <Field id="invite-email" label="Email to invite" type="email" autoComplete="off" value={email} onInput={setEmail} error={errors.fields.email} />
        <button type="submit" class="primary">Create invite link</button>
      </form>
      {invite && (
        <div class="card created" role="region" aria-label="Invite link">
          <CopyField id="invite-link" label={`Invite link for ${invite.email}`} value={invite.link}>
            <p class="hint">Send it yourself; it works once, for {invite.email}, until {formatDate(invite.expiresAt)}.</p>
          </CopyField>
        </div>
      )}
      {members === null ? <p>Loading members…</p> : (
        <table class="keys">
          <caption class="sr-only">Members of {org.name}</caption>
          <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th></tr></thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId}><th scope="row" data-label="Email">{m.email}</th><td data-label="Role">{m.role}</td><td data-label="Joined"><DateText iso={m.joinedAt} /></td></tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
