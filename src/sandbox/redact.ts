// Secret redaction: every secret env value, in plain, base64 (standard and URL-safe) and URL-encoded form,
// is replaced before output leaves the sandbox capability. Pure functions; no I/O.
export const REDACTED = '[REDACTED]';

/** The encodings of one secret a program might print; short secrets still count (the caller chose them). */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const forms = new Set<string>([
    secret,
    b64,
    b64.replace(/=+$/, ''),
    Buffer.from(secret, 'utf8').toString('base64url'),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    escape(secret),
  ]);
  // Lower-case percent escapes are as valid as upper-case ones.
  for (const form of [...forms]) if (/%[0-9A-F]{2}/.test(form)) forms.add(form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  return [...forms].filter((form) => form.length > 0);
}

/** Builds a redactor for a set of secrets; longer forms first so a secret inside another is not half-replaced. */
export function createRedactor(secrets: string[]): (text: string) => string {
  const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return (text) => text;
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(pattern, REDACTED);
}

/** The longest form any secret may take in output: how much past the cap the capture must keep. */
export function longestForm(secrets: string[]): number {
  return secrets.flatMap(secretForms).reduce((max, form) => Math.max(max, Buffer.byteLength(form)), 0);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
