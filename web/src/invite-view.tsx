// #/invite/<token>: join the organisation of an invite link (signing in first when needed).
import { useState } from 'preact/hooks';
import { api, type Org } from './api.ts';
import { FormError, useFormErrors } from './forms.tsx';

export function InviteView({ token, onJoined }: { token: string; onJoined: (org: Org) => void }) {
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors();
  const accept = async () => {
    errors.clear();
    setBusy(true);
    try {
      onJoined(await api.acceptInvite(token));
    } catch (error) {
      errors.take(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card narrow" aria-labelledby="invite-title">
      <h1 id="invite-title">Join an organisation</h1>
      <p>You were invited to an organisation on tooldex.</p>
      <FormError message={errors.form} />
      <button type="button" class="primary" disabled={busy} onClick={accept}>Accept invite</button>
    </section>
  );
}
