// Starts the server on a free port with a temporary data dir and the demo
// content, and Debian's Chromium through playwright-core. Nothing is
// downloaded: the browser is the system's.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { startNetwork } from './network.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEMO_PASSWORD = 'mavuno-demo';
export const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/**
 * The server the tests run: the debug build `cargo test` has just made (`scripts/test`
 * spares CI a release build, ~6.4 min from scratch on 2 cores; the same code, with
 * overflow checks on); `E2E_SERVER` names another, e.g. `target/release/mavuno`.
 */
export const SERVER = process.env.E2E_SERVER ?? join(root, 'target/debug/mavuno');

/** Starts `SERVER` on `dataDir` with the demo content; `output` is what it has logged so far. */
async function serve(dataDir, addr = '127.0.0.1:0') {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('MAVUNO_')) delete env[key];
  const child = spawn(
    SERVER,
    ['serve', '--addr', addr, '--data-dir', dataDir, '--web-dir', join(root, 'pwa/dist'), '--demo'],
    { stdio: ['ignore', 'pipe', 'inherit'], env },
  );
  // Never leave a server behind, even when the tests are interrupted.
  const killServer = () => child.kill('SIGKILL');
  process.once('exit', killServer);
  const server = { child, output: '', origin: '' };
  server.origin = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${server.output}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      server.output += chunk;
      const match = server.output.match(/listening on (http:\/\/[\d.:]+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${server.output}`)));
  });
  return server;
}

/**
 * A data directory with the demo content loaded by `SERVER`, made by the first test file of
 * a run and copied for each server after it: the debug build takes ~4 s to draw and store
 * the demo's pictures, 24 times a run. Named by the binary's build, so a new build loads
 * its own; two files making it at once both make one, and the first kept is used.
 */
async function demoData() {
  const { mtimeMs, size } = statSync(SERVER);
  const build = createHash('sha256').update(`${SERVER} ${mtimeMs} ${size}`).digest('hex').slice(0, 16);
  const made = join(tmpdir(), `mavuno-e2e-demo-${build}`);
  if (existsSync(made)) {
    // Used: not an old build's, for another build's run to remove (below).
    utimesSync(made, new Date(), new Date());
    return made;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'mavuno-e2e-'));
  const server = await serve(dataDir);
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
  try {
    renameSync(dataDir, made);
  } catch {
    // Another file of the run made it first.
    rmSync(dataDir, { recursive: true, force: true });
    return made;
  }
  // Older builds' copies go, once unused for an hour: no run of theirs is still copying them.
  for (const name of readdirSync(tmpdir()).filter((name) => name.startsWith('mavuno-e2e-demo-'))) {
    const old = join(tmpdir(), name);
    const stale =
      old !== made && (statSync(old, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < Date.now() - 3_600_000;
    if (stale) rmSync(old, { recursive: true, force: true });
  }
  return made;
}

/** One column of `sql`'s rows, read from the server's database with Python's sqlite3. */
function outbox(dataDir, sql, arg) {
  const script = [
    'import json,sqlite3,sys',
    'rows = sqlite3.connect(sys.argv[1]).execute(sys.argv[2], (sys.argv[3],))',
    'print(json.dumps([r[0] for r in rows]))',
  ].join('\n');
  const out = execFileSync('python3', ['-c', script, join(dataDir, 'mavuno.db'), sql, arg], { encoding: 'utf8' });
  return JSON.parse(out);
}

export async function startServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mavuno-e2e-'));
  cpSync(await demoData(), dataDir, { recursive: true });
  let server = await serve(dataDir);
  return {
    origin: server.origin,
    dataDir,
    /** What the server has logged so far. */
    log: () => server.output,
    /**
     * The texts sent to `number` (E.164) so far, oldest first: without an SMS provider
     * they stay in the outbox (the log never holds their words), read from the database.
     */
    texts: (number) => outbox(dataDir, 'SELECT body FROM sms_outbox WHERE to_number = ? ORDER BY id', number),
    /** The emails' bodies sent to `address` so far, oldest first (without SMTP, as texts). */
    emails: (address) => outbox(dataDir, 'SELECT body FROM email_outbox WHERE to_email = ? ORDER BY id', address),
    /** `kill -9`, as when the machine is lost. */
    async kill() {
      server.child.kill('SIGKILL');
      await once(server.child, 'exit');
    },
    /** Starts it again on the same address and data dir (after `kill`). */
    async start() {
      server = await serve(dataDir, new URL(server.origin).host);
    },
    async stop() {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await once(server.child, 'exit');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** How tests and benchmarks start Debian's Chromium (nothing downloaded, nothing phoned home). */
export const LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-gpu',
  ],
};

/**
 * Gives a browser context a network of its own that a test can cut for real
 * (`network.mjs`): `context.setOffline(true)` cuts it and also tells the pages they are
 * offline (`navigator.onLine`, which the app reads); `context.network.cut()` alone is
 * a phone with a signal but no data getting through. Chromium forgets the emulated
 * offline state when a page navigates, so it is told again after each navigation.
 */
function withNetwork(context, network) {
  let offline = false;
  const sessions = new Map();
  const emulate = async (page) => {
    if (page.isClosed()) return;
    if (!sessions.has(page)) sessions.set(page, context.newCDPSession(page));
    const cdp = await sessions.get(page).catch(() => null);
    const conditions = { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
    await cdp?.send('Network.emulateNetworkConditions', conditions).catch(() => undefined);
  };
  const watch = (page) =>
    page.on('framenavigated', (frame) => {
      if (offline && frame === page.mainFrame()) void emulate(page);
    });
  context.pages().forEach(watch);
  context.on('page', watch);
  context.on('close', () => void network.close());
  const setOffline = context.setOffline.bind(context);
  context.network = network;
  context.setOffline = async (value) => {
    offline = value;
    await (value ? network.cut() : network.restore());
    await setOffline(value);
    await Promise.all(context.pages().map(emulate));
  };
  return context;
}

/**
 * A context that `open` makes behind a network of its own (`withNetwork`). When it cannot
 * be made, the network is closed: its listening proxy would keep the test file's process
 * alive for ever after the failure (a Chromium that crashed as it started hung a whole run).
 */
async function behindNetwork(open) {
  const network = await startNetwork();
  try {
    return withNetwork(await open(network.url), network);
  } catch (error) {
    await network.close();
    throw error;
  }
}

/**
 * Starts Chromium, once more if it died as it started (a crash of the browser itself,
 * before any page of the app: Debian's Chromium 148 did so once in a run, SIGSEGV).
 */
async function launch(start) {
  try {
    return await start();
  } catch (error) {
    if (!/has been closed|exitCode=|signal=/.test(String(error?.message))) throw error;
    console.error(`Chromium did not start; once more. ${String(error.message).split('\n')[0]}`);
    return start();
  }
}

/** Keys a page drew as themselves, having no words (src/lib/i18n.ts says them on the console). */
const missingWords = new Set();
function heedMissingWords(context) {
  const heed = (page) =>
    page.on('console', (message) => {
      const said = message.text();
      if (message.type() === 'error' && said.startsWith('i18n: no words for '))
        missingWords.add(`${said.slice('i18n: no words for '.length)} (${page.url()})`);
    });
  context.pages().forEach(heed);
  context.on('page', heed);
  return context;
}

export async function launchBrowser() {
  const browser = await launch(() => chromium.launch(LAUNCH));
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options) =>
    behindNetwork((server) => newContext({ ...options, proxy: { server } })).then(heedMissingWords);
  return browser;
}

/** A browser with a real (not incognito) profile, as a phone has; pass `dir` to reopen one. */
export async function launchProfile(options, dir = mkdtempSync(join(tmpdir(), 'mavuno-profile-'))) {
  const context = heedMissingWords(
    await behindNetwork((server) =>
      launch(() => chromium.launchPersistentContext(dir, { ...LAUNCH, ...options, proxy: { server } })),
    ),
  );
  const profile = {
    context,
    dir,
    /** Closes the browser; the profile stays on disk when `keep` is set. */
    async close({ keep = false } = {}) {
      openProfiles.delete(profile);
      await context.close();
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
  openProfiles.add(profile);
  return profile;
}

/** Profiles a failed test left open: closed after the file, or its process would never end. */
const openProfiles = new Set();

/** One server and one browser for a test file: `env.server`, `env.browser` once the tests run. */
export function serverAndBrowser() {
  const env = {};
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await Promise.all([...openProfiles].map((profile) => profile.close().catch(() => undefined)));
    await env.browser?.close();
    await env.server?.stop();
    // Every screen this file's tests drew had words for every key, in its language.
    assert.deepEqual([...missingWords], [], 'keys drawn as text');
  });
  return env;
}

/** Waits until the app has taken the place of the server's first screen (src/lib/first-screen.ts). */
export async function appStarted(page) {
  await page.locator('[data-first-screen]').waitFor({ state: 'detached' });
}

/** Waits until the service worker has installed and controls the page. */
export async function controlledByServiceWorker(page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

let counter = 0;
/** An email no other test uses. */
export function uniqueEmail(prefix) {
  counter += 1;
  return `${prefix}.${Date.now()}.${counter}@example.com`;
}

/** A phone number no other account of this run has (numbers are unique like emails), as typed at home: "09…" (DRC) or, with `trunk` "078", Rwanda's form. */
export function uniquePhone(trunk = '099') {
  counter += 1;
  return `${trunk}${String(Date.now()).slice(-5)}${String(counter % 100).padStart(2, '0')}`;
}

export async function signIn(page, origin, email, password = DEMO_PASSWORD) {
  const answers = [];
  const heard = (response) => {
    if (response.url().includes('/api/v1/users/login')) answers.push(response.status());
  };
  page.on('response', heard);
  await page.goto(`${origin}/login?lng=en`);
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  try {
    await page.waitForURL(`${origin}/dashboard`);
  } catch (error) {
    // What the page was showing, so that a failure says where the sign-in stopped.
    const state = await page
      .evaluate(() => ({
        firstScreen: document.querySelector('[data-first-screen]') !== null,
        email: document.querySelector('main form input')?.value,
        said: [...document.querySelectorAll('main [role="alert"], main [role="status"], main [data-said]')].map(
          (e) => e.textContent,
        ),
        button: document.querySelector('main form button[type="submit"]')?.outerHTML,
      }))
      .catch((e) => String(e));
    const seen = JSON.stringify({ url: page.url(), answers, ...state });
    throw new Error(`${email}'s sign-in did not reach the home: ${seen}`, { cause: error });
  } finally {
    page.off('response', heard);
  }
  // The address changes at once; the page on screen, once the dashboard's code has come.
  await page.locator('.dashboard-topbar').waitFor();
}

/** What `POST /orders` takes for `line` ({ product_id, quantity, unit_price_cents }), picked up, paid on delivery. */
export function pickupOrder(line, phone = '0991000777') {
  const shipping = {
    first_name: 'Neema',
    last_name: 'Bahati',
    email: '',
    phone,
    address: 'Kabare',
    city: 'Bukavu',
    postal_code: '',
    country: 'DRC',
  };
  return { uid: crypto.randomUUID(), lines: [line], delivery: 'pickup', payment_method: 'cash_on_delivery', shipping };
}

/** From the marketplace to a filled checkout for one of the product `title` (English). */
export async function toCheckout(page, origin, title) {
  await page.goto(`${origin}/marketplace?lng=en`);
  await page.getByRole('link', { name: title }).click();
  await page.locator('.product-page h1', { hasText: title }).waitFor();
  await page.locator('.product-page').getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('link', { name: 'Cart, 1 item' }).click();
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  await page.getByLabel(/^Address/).fill('Avenue Lumumba 12');
  await page.getByLabel(/^City/).fill('Bukavu');
}

/** Opens the signed-in buyer's Applications section of the dashboard (English, at 360 px). */
export async function openApplications(page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('button', { name: 'Applications' }).click();
  await page.getByRole('heading', { name: 'Your applications' }).waitFor();
}

/** Answers every question of the application form (English labels). */
/** One USSD session of `phone` (E.164), posted as Africa's Talking's gateway posts it,
 * one request per answer as a person gives them; answers the last screen. */
export async function ussd(server, phone, answers) {
  const token = readFileSync(join(server.dataDir, 'gateway-token'), 'utf8').trim();
  const sessionId = `ATUid_e2e_${Date.now()}_${Math.random().toString(36).slice(2)}`;
  let body = '';
  for (let n = 0; n <= answers.length; n++) {
    const form = new URLSearchParams({
      sessionId,
      serviceCode: '*384*1#',
      phoneNumber: phone,
      networkCode: '63001',
      text: answers.slice(0, n).join('*'),
    });
    const response = await fetch(`${server.origin}/api/v1/ussd/${token}`, { method: 'POST', body: form });
    assert.equal(response.status, 200);
    body = await response.text();
  }
  return body;
}

export async function fillApplication(page) {
  const choose = async (label, option) => page.getByLabel(label).selectOption(option);
  await choose(/^How much land/, '1-2 hectares');
  await choose(/^Who works on your farm/, 'With family');
  await page.getByLabel(/^Cooperative name/).fill('Umoja wa Kabare');
  await choose(/^Sources of income/, 'Farming only');
  await choose(/^Type of seed/, 'Improved/hybrid');
  await choose(/^Where you get your seed/, 'Local market');
  await choose(/^Fertilizers you use/, 'Compost/manure');
  await choose(/^How you prepare/, 'Hand tools (hoe)');
  await page.getByLabel(/^Farming techniques/).fill('Mulching and intercropping beans with maize');
  await choose(/^Main planting season/, 'Season A');
  await choose(/^Season with the bigger harvest/, 'Season B');
  await page.getByLabel(/^Why that season/).fill('More rain');
  await choose(/^Average harvest/, '1-2 tons');
  await page.getByLabel(/^Main challenges/).fill('Pests and late rains');
  await page.getByLabel('I lose part of my harvest after harvesting').check();
  await page.getByLabel(/^About what share is lost/).fill('30');
  await choose(/^How you sell your harvest/, 'Sell at local market');
  await page.getByLabel(/^What would help you produce more/).fill('Better seed');
  await page.getByLabel(/^What would help you sell better/).fill('Selling as a group');
}

/** A photo as a phone's camera would give it: drawn in the page, returned as a PNG file to pick. */
export async function cameraPhoto(page, name) {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 1600;
    canvas.height = 1200;
    const g = canvas.getContext('2d');
    g.fillStyle = '#f3e6c8';
    g.fillRect(0, 0, 1600, 1200);
    g.fillStyle = '#c9a96e';
    for (let i = 0; i < 40; i++) g.fillRect((i * 97) % 1500, (i * 53) % 1100, 90, 60);
    return canvas.toDataURL('image/png').split(',')[1];
  });
  return { name, mimeType: 'image/png', buffer: Buffer.from(base64, 'base64') };
}

/** A new buyer's account, made through the API (with `phone`, or a number of its own); answers its email (password: the demo one). */
export async function newBuyer(origin, prefix, phone = uniquePhone()) {
  const email = uniqueEmail(prefix);
  const user = {
    first_name: 'Neema',
    last_name: 'Bahati',
    email,
    phone_number: phone,
    country: 'DRC',
    password: DEMO_PASSWORD,
    password_confirmation: DEMO_PASSWORD,
  };
  const response = await fetch(`${origin}/api/v1/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return email;
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical WCAG 2.1 A/AA problems on the page (needs a context with `bypassCSP`). */
export async function audit(page, { rules } = {}) {
  // The app's CSP forbids injected scripts; the test's context bypasses it for axe only.
  await page.addScriptTag({ path: axePath });
  const runOnly = rules
    ? { type: 'rule', values: rules }
    : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] };
  const result = await page.evaluate(
    (runOnly) => window.axe.run(document, { runOnly, resultTypes: ['violations'] }),
    runOnly,
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Fails unless the page really cannot reach the server: its context's network is cut
 * (`withNetwork`), and a request from the page and one its service worker makes for it
 * both fail. Call it on a page already showing the app.
 */
export async function assertOffline(page) {
  if (page.context().network?.up !== false) throw new Error('the network of this page is not cut');
  const reached = await page.evaluate(async () => {
    const probes = [`/api/v1/health?offline-check=${Date.now()}`, `/media/${'0'.repeat(64)}-320.jpg?${Date.now()}`];
    const reached = [];
    for (const url of probes) {
      try {
        await fetch(url, { cache: 'no-store' });
        reached.push(url);
      } catch {
        // Refused: as it should be.
      }
    }
    return reached;
  });
  if (reached.length > 0) throw new Error(`${page.url()} still reaches ${reached.join(', ')} while offline`);
}

/**
 * Opens a page whose app scripts are held back (with `firstScript`, all but the page's
 * first one, which opens the early forms) until `release` is called: a slow link's app.
 * Held through the DevTools protocol's Fetch domain, not Playwright's routing, which
 * turns the browser's cache off: Chromium 148 then fetched again a picture the page
 * already had, which no phone does.
 */
export async function holdBackApp(context, { firstScript = false } = {}) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const scripts = firstScript ? /^\/assets\/(?!index-)[^/]*\.js$/ : /^\/assets\/.*\.js$/;
  const held = [];
  let released = false;
  const go = (requestId) => cdp.send('Fetch.continueRequest', { requestId }).catch(() => {});
  cdp.on('Fetch.requestPaused', ({ requestId, request }) => {
    if (!released && scripts.test(new URL(request.url).pathname)) held.push(requestId);
    else void go(requestId);
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/assets/*', requestStage: 'Request' }] });
  const release = () => {
    released = true;
    held.splice(0).forEach(go);
  };
  return { page, release };
}
