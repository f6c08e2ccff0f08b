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

/** Server messages look like `Body field "password": use at least 10 characters.`; show the reason only. */
const reason = (message: string) => {
  const text = message.replace(/^(?:Body field|Query parameter|Path parameter|Header) "[^"]+": /, '');
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
    setField(field: string, message: string) {
      setFields({ [field]: message });
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

/** A short local date and time ("23 Nov 2026, 14:05"), kept on one line by the `date` class. */
export const formatDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }) : 'Never';

export function DateText({ iso }: { iso: string | null }) {
  return iso ? <time class="date" dateTime={iso}>{formatDate(iso)}</time> : <span class="date">Never</span>;
}

/** A multi-line snippet (a command, a config file) with a Copy button; the text stays selectable. */
export function CopyBlock({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const range = document.createRange(); // no clipboard permission: select it for Ctrl+C
      const node = document.getElementById(id);
      if (node) {
        range.selectNodeContents(node);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
      }
    }
    setCopied(true);
  };
  return (
    <div class="copy-block">
      <div class="copy-head">
        <span class="copy-label" id={`${id}-label`}>{label}</span>
        <button type="button" onClick={copy} aria-describedby={`${id}-label`}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <pre id={id} class="snippet" aria-labelledby={`${id}-label`} tabIndex={0}>{value}</pre>
      <p class="sr-only" role="status">{copied ? 'Copied to the clipboard.' : ''}</p>
    </div>
  );
}
