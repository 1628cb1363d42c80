// Drives one headless Chromium page for a Java test (testkit's Browser): one JSON command per line
// on stdin, one JSON answer per line on stdout. Exits when stdin ends, so a test JVM that dies
// leaves no browser behind.
import { chromium } from 'playwright-core';
import { createInterface } from 'node:readline';

const [executablePath, width, height] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
const context = await browser.newContext({ viewport: { width: Number(width), height: Number(height) } });
const page = await context.newPage();
const errors = [];
const outside = [];
page.on('pageerror', e => errors.push(String(e)));
page.on('console', m => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
// Every request the page makes: anything not to the console's own origin is recorded.
page.on('request', r => {
  const url = r.url();
  if (!url.startsWith('http://127.0.0.1') && !url.startsWith('data:') && !url.startsWith('about:')) outside.push(url);
});

const ops = {
  goto: c => page.goto(c.url, { waitUntil: 'load' }).then(() => null),
  waitFor: c => page.waitForFunction(c.expr, null, { timeout: c.timeoutMs, polling: 100 }).then(h => h.jsonValue()),
  eval: c => page.evaluate(c.expr),
  click: c => page.click(c.selector, { timeout: c.timeoutMs || 10000 }).then(() => null),
  fill: c => page.fill(c.selector, c.value).then(() => null),
  select: c => page.selectOption(c.selector, c.value).then(() => null),
  screenshot: c => page.screenshot({ path: c.path, fullPage: !!c.fullPage }).then(() => c.path),
  errors: () => Promise.resolve({ errors: errors.splice(0), outside: outside.splice(0) }),
};

function answer(a) { process.stdout.write(JSON.stringify(a) + '\n'); }
answer({ id: 0, ok: true, value: browser.version() });

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  try {
    const op = ops[c.op];
    if (!op) throw new Error('unknown op ' + c.op);
    answer({ id: c.id, ok: true, value: (await op(c)) ?? null });
  } catch (e) {
    answer({ id: c.id, ok: false, error: String(e && e.message || e) });
  }
}
await browser.close();
process.exit(0);
