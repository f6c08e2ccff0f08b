// A small cookie-keeping client of the dashboard API for integration tests: what a browser tab would do.
export class DashboardClient {
  private cookie = '';
  csrf = '';

  constructor(private readonly base: string) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes, asserted field by field
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.csrf && method !== 'GET' ? { 'x-csrf-token': this.csrf } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0] ?? '';
    const text = await response.text();
    const parsed = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    if (parsed && typeof parsed === 'object' && typeof parsed.csrfToken === 'string') this.csrf = parsed.csrfToken;
    return { status: response.status, body: parsed, headers: response.headers };
  }

  signUp(email: string, password = 'correct horse battery') {
    return this.call('POST', '/dashboard/api/signup', { email, password });
  }

  async createOrg(name: string): Promise<string> {
    const response = await this.call('POST', '/dashboard/api/orgs', { name });
    if (response.status !== 201) throw new Error(`create org: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id;
  }

  async createKey(orgId: string, name = 'test'): Promise<{ id: string; key: string }> {
    const response = await this.call('POST', `/dashboard/api/orgs/${orgId}/keys`, { name });
    if (response.status !== 201) throw new Error(`create key: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }
}

export const search = (base: string, key?: string, authorization = key ? `Bearer ${key}` : undefined) =>
  fetch(`${base}/tools/search?q=http%20client&limit=1`, { headers: authorization ? { authorization } : {} });
