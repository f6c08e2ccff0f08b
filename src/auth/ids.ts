// Identifiers and one-time secrets of the auth capability (ids are public; tokens are shown once, stored hashed).
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const newId = (kind: 'usr' | 'org' | 'key' | 'inv') => `${kind}_${randomBytes(9).toString('base64url')}`;

/** 256-bit URL-safe token for sessions, CSRF and invite links. */
export const newToken = () => randomBytes(32).toString('base64url');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
