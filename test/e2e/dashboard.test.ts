// The dashboard end to end in headless Chromium (Debian's, driven by playwright-core): sign up, create an
// organisation and a key (a name is asked for), run the curl and MCP snippets shown with it, revoke it in the page
// (the dialog says 403 under required auth), call again (403); dates on one line; the usage panel on a phone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const artifacts = path.join(root, 'test-artifacts');
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

const search = (base: string, key: string) =>
  fetch(`${base}/tools/search?q=http%20client&limit=1`, { headers: { authorization: `Bearer ${key}` } });

/** Every date in the page's tables is one line tall (dates wrapped over 3-4 lines at some widths). */
async function assertDatesOnOneLine(page: Page): Promise<void> {
  const heights = await page.evaluate(() => [...document.querySelectorAll('table .date')].map((el) => {
    const style = getComputedStyle(el);
    return { text: el.textContent ?? '', lines: Math.round(el.getBoundingClientRect().height / parseFloat(style.lineHeight)) };
  }));
  assert.ok(heights.length > 0, 'the page shows dates');
  for (const { text, lines } of heights) assert.equal(lines, 1, `"${text}" takes ${lines} lines`);
}

describe('dashboard in headless Chromium', { skip: !fs.existsSync(CHROMIUM) && 'no /usr/bin/chromium (scripts/setup.sh installs it)' }, () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];

  // launch() gives each run a fresh temporary profile (user-data dir) and removes it on close.
  before(async () => {
    const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-web.mjs')], { stdio: 'inherit' });
    assert.equal(built.status, 0, 'dashboard build');
    server = await startServer({ config: { TOOLDEX_AUTH: 'required' } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    fs.mkdirSync(artifacts, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs up, creates an organisation and a key, and revokes it in the page', async () => {
    await page.goto(`${server.url}/dashboard/`);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill('e2e@example.com');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Use at least 10 characters').waitFor();
    assert.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true', 'the field is marked invalid');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: 'Create your organisation' }).waitFor();
    await page.getByLabel('Organisation name').fill('E2E Org');
    await page.getByRole('button', { name: 'Create organisation' }).click();

    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    // An empty name is not silently "default": the field asks for one and nothing is created.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Give the key a name').waitFor();
    assert.equal(await page.getByLabel('Key name').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('tr[data-key-id]').count(), 0);
    await page.getByLabel('Key name').fill('e2e');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#new-key').inputValue();
    assert.match(key, /^tdx_/);

    // The snippets shown with the key work as pasted: the curl command in a shell, the MCP config in the SDK's client.
    const curl = (await page.locator('#key-curl').innerText()).trim();
    assert.ok(curl.includes(key) && curl.startsWith('curl '), curl);
    // Asynchronously: the server answers from this very process.
    const shell = await promisify(execFile)('bash', ['-c', `${curl} -s -w '\n%{http_code}'`], { encoding: 'utf8', timeout: 30_000 });
    const [body, status] = [shell.stdout.slice(0, shell.stdout.lastIndexOf('\n')), shell.stdout.slice(shell.stdout.lastIndexOf('\n') + 1)];
    assert.equal(status, '200', shell.stdout + shell.stderr);
    assert.ok((JSON.parse(body) as { results: unknown[] }).results.length > 0);
    const config = JSON.parse(await page.locator('#key-mcp').innerText()) as { mcpServers: { tooldex: { type: string; url: string; headers: Record<string, string> } } };
    assert.equal(config.mcpServers.tooldex.type, 'http');
    const mcp = new Client({ name: 'e2e', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(config.mcpServers.tooldex.url), { requestInit: { headers: config.mcpServers.tooldex.headers } }));
    assert.equal((await mcp.listTools()).tools.length, 6);
    await mcp.close();
    await page.screenshot({ path: path.join(artifacts, 'api-key-created.png'), fullPage: true });
    await page.getByRole('button', { name: 'Done' }).click();
    assert.equal(await page.locator('#new-key').count(), 0, 'the key is gone from the page once dismissed');

    const ok = await search(server.url, key);
    assert.equal(ok.status, 200);

    await page.getByRole('button', { name: 'Usage of e2e' }).click();
    await page.getByText(/\d+ requests? and 0 test runs in the last 14 days/).waitFor();
    await page.getByRole('row', { name: /e2e/ }).getByText('Active').waitFor();
    assert.doesNotMatch(await page.getByRole('row', { name: /e2e/ }).innerText(), /Never/, 'last used is shown');
    await assertDatesOnOneLine(page);
    await page.screenshot({ path: path.join(artifacts, 'api-keys.png'), fullPage: true });

    // Keyboard: the revoke button opens the confirmation, Escape cancels it.
    await page.getByRole('button', { name: 'Revoke e2e' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke “e2e”?' });
    await dialog.waitFor();
    await dialog.getByText(/get 403 invalid_api_key from their next request/).waitFor(); // TOOLDEX_AUTH=required here
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await search(server.url, key)).status, 200, 'cancelled: the key still works');

    await page.getByRole('button', { name: 'Revoke e2e' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('row', { name: /e2e/ }).getByText('Revoked').waitFor();
    const refused = await search(server.url, key);
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error.code, 'invalid_api_key');
  });

  it('invites a member by link, and fits a phone-width screen', async () => {
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Email to invite').fill('friend@example.com');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = await page.locator('#invite-link').inputValue();
    assert.match(link, /\/dashboard\/#\/invite\/[\w-]{40,}$/);

    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const mobile = await phone.newPage();
    mobile.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await mobile.goto(link);
    await mobile.getByText('Sign in or create an account with the invited email address').waitFor();
    await mobile.getByRole('button', { name: 'Create an account' }).click();
    await mobile.getByLabel('Email').fill('friend@example.com');
    await mobile.getByLabel('Password').fill('another long password');
    await mobile.getByRole('button', { name: 'Create account' }).click();
    await mobile.getByRole('button', { name: 'Accept invite' }).click();
    await mobile.getByRole('heading', { name: 'API Keys' }).waitFor();
    await mobile.locator('tr[data-key-id]').first().waitFor();
    const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 375 px (overflow ${overflow} px)`);
    await assertDatesOnOneLine(mobile);
    // "Usage" opens its panel below the list: on a phone it is brought into view (and takes the focus).
    await mobile.getByRole('button', { name: /^Usage of / }).first().click();
    const panel = mobile.getByRole('region', { name: /^Usage of / });
    await panel.getByRole('heading').waitFor();
    await mobile.waitForFunction(() => {
      const box = document.querySelector('.usage-panel')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.top < window.innerHeight / 2;
    }, undefined, { timeout: 5000 });
    assert.equal(await mobile.evaluate(() => document.activeElement?.classList.contains('usage-panel')), true, 'focus moves to the panel');
    await mobile.screenshot({ path: path.join(artifacts, 'api-keys-phone.png'), fullPage: true });
    await mobile.screenshot({ path: path.join(artifacts, 'usage-phone.png') });
    await phone.close();
  });

  it('signs out, and logged no console errors', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to tooldex' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to tooldex' }).waitFor();
    // Chromium logs every 4xx response as a console error: the signed-out page's 401 from /me and the 422 the
    // test provoked with a short password are answers the page handles. Script errors or other statuses are defects.
    const unexpected = consoleErrors.filter((text) => !/status of (401 \(Unauthorized\)|422 \(Unprocessable Entity\))/.test(text));
    assert.ok(consoleErrors.length <= 4, `only the expected responses were logged: ${consoleErrors.join(' | ')}`);
    assert.deepEqual(unexpected, []);
  });
});
