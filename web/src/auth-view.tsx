// Sign in / create account: one form, two modes; field errors come from the server's validation.
import { useState } from 'preact/hooks';
import { api, type Me } from './api.ts';
import { Field, FormError, useFormErrors } from './forms.tsx';

export function AuthView({ onSignedIn, note }: { onSignedIn: (me: Me) => void; note?: string }) {
  const [mode, setMode] = useState<'signin' | 'signup'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors();
  const signingUp = mode === 'signup';

  const submit = async (event: Event) => {
    event.preventDefault();
    errors.clear();
    setBusy(true);
    try {
      onSignedIn(signingUp ? await api.signUp(email, password) : await api.signIn(email, password));
    } catch (error) {
      errors.take(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card narrow" aria-labelledby="auth-title">
      <h1 id="auth-title">{signingUp ? 'Create your tooldex account' : 'Sign in to tooldex'}</h1>
      {note && <p class="note">{note}</p>}
      <form onSubmit={submit} noValidate>
        <FormError message={errors.form} />
        <Field id="email" label="Email" type="email" autoComplete="email" value={email} onInput={setEmail} error={errors.fields.email} />
        <Field id="password" label="Password" type="password" autoComplete={signingUp ? 'new-password' : 'current-password'}
          value={password} onInput={setPassword} error={errors.fields.password} hint={signingUp ? 'At least 10 characters.' : undefined} />
        <button type="submit" class="primary" disabled={busy}>{signingUp ? 'Create account' : 'Sign in'}</button>
      </form>
      <p class="switch">
        {signingUp ? 'Already have an account? ' : 'New here? '}
        <button type="button" class="link" onClick={() => { errors.clear(); setMode(signingUp ? 'signin' : 'signup'); }}>
          {signingUp ? 'Sign in' : 'Create an account'}
        </button>
      </p>
    </section>
  );
}
