// Cookie sessions of the dashboard API: the session cookie (HttpOnly, SameSite=Strict, Secure behind TLS),
// the signed-in check, and CSRF checks (per-session token header; cross-site sign-in refused).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import { safeEqual, type NewSession, type SessionInfo } from '../../auth/index.ts';
import { ToolDexError } from '../../errors.ts';

export const SESSION_COOKIE = 'tdx_session';
export const CSRF_HEADER = 'x-csrf-token';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession?: SessionInfo & { token: string };
  }
}

const isSecure = (app: App, request: FastifyRequest): boolean => {
  const setting = app.config.TOOLDEX_SECURE_COOKIES;
  if (setting !== 'auto') return setting === 'always';
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
};

export function setSessionCookie(app: App, request: FastifyRequest, reply: FastifyReply, session: NewSession): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/', httpOnly: true, sameSite: 'strict', secure: isSecure(app, request),
    expires: new Date(session.expiresAt),
  });
}

export function clearSessionCookie(app: App, request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: isSecure(app, request) });
}

const csrfFailed = (why: string) => new ToolDexError('csrf_failed', 403, `Request refused as possible cross-site forgery: ${why}; reload the dashboard.`);

const hostOf = (origin: string): string | undefined => {
  try {
    return new URL(origin).host;
  } catch {
    return undefined; // "null" (sandboxed frames, some redirects) or garbage: not this site
  }
};

/** Sign-up and sign-in have no session yet: refuse them when the browser says they come from another site. */
export function assertSameSite(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw csrfFailed('the form was posted from another site');
  const origin = request.headers.origin;
  if (origin && hostOf(origin) !== request.headers.host) throw csrfFailed('the Origin header names another site');
}

/** preHandler of every signed-in route: resolves the cookie, and on state changes checks the CSRF header. */
export function requireSession(app: App) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await app.auth.accounts.session(token) : undefined;
    if (!token || !session) throw new ToolDexError('not_signed_in', 401, 'Sign in to the dashboard first (your session may have expired).');
    if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || !safeEqual(sent, session.csrfToken)) throw csrfFailed(`the ${CSRF_HEADER} header is missing or stale`);
    }
    request.dashboardSession = { ...session, token };
  };
}
