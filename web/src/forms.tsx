// Form pieces shared by every view: labelled fields with their error text wired by aria-describedby,
// and a helper that turns a server error into field-level or form-level messages.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from './api.ts';

export interface FieldProps {
  id: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value: string;
  onInput: (value: string) => void;
  error?: string;
  hint?: string;
  autoComplete?: string;
}

export function Field({ id, label, type = 'text', value, onInput, error, hint, autoComplete }: FieldProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={id} type={type as "text"} value={value} autoComplete={autoComplete} aria-invalid={error ? 'true' : undefined}
        aria-describedby={described} onInput={(event) => onInput((event.target as HTMLInputElement).value)} />
      {hint && <p id={`${id}-hint`} class="hint">{hint}</p>}
      {error && <p id={`${id}-error`} class="field-error">{error}</p>}
    </div>
  );
}

/** Server messages look like `Invalid body field "password": use at least 10 characters.`; show the reason only. */
const reason = (message: string) => {
  const text = message.replace(/^Invalid [a-z]+ field "[^"]+": /, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

export function useFormErrors() {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [form, setForm] = useState('');
  return {
    fields,
    form,
    clear() {
      setFields({});
      setForm('');
    },
    take(error: unknown) {
      if (error instanceof ApiError && error.field) setFields({ [error.field]: reason(error.message) });
      else setForm(error instanceof Error ? reason(error.message) : 'Something went wrong.');
    },
  };
}

export function FormError({ message }: { message: string }) {
  return message ? <p class="form-error" role="alert">{message}</p> : null;
}

export function CopyField({ id, label, value, children }: { id: string; label: string; value: string; children?: ComponentChildren }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const input = document.getElementById(id) as HTMLInputElement | null;
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      input?.select(); // no clipboard permission: leave it selected for Ctrl+C
    }
    setCopied(true);
  };
  return (
    <div class="field copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} readOnly value={value} class="mono" onFocus={(event) => (event.target as HTMLInputElement).select()} />
        <button type="button" onClick={copy}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      {children}
      <p class="sr-only" role="status">{copied ? 'Copied to the clipboard.' : ''}</p>
    </div>
  );
}

export const formatDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';
