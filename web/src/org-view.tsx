// Create an organisation: the first step after signing up, and available later from the header.
import { useState } from 'preact/hooks';
import { api, type Org } from './api.ts';
import { Field, FormError, useFormErrors } from './forms.tsx';

export function CreateOrgView({ onCreated, first }: { onCreated: (org: Org) => void; first: boolean }) {
  const [name, setName] = useState('');
  const errors = useFormErrors();
  const submit = async (event: Event) => {
    event.preventDefault();
    errors.clear();
    try {
      onCreated(await api.createOrg(name));
    } catch (error) {
      errors.take(error);
    }
  };
  return (
    <section class="card narrow" aria-labelledby="org-title">
      <h1 id="org-title">{first ? 'Create your organisation' : 'New organisation'}</h1>
      <p>API keys belong to an organisation; invite your team to it later.</p>
      <form onSubmit={submit} noValidate>
        <FormError message={errors.form} />
        <Field id="org-name" label="Organisation name" autoComplete="organization" value={name} onInput={setName} error={errors.fields.name} />
        <button type="submit" class="primary">Create organisation</button>
      </form>
    </section>
  );
}
