// Debian's Chromium, driven by playwright-core, on the playground served on 127.0.0.1.
// Never downloads a browser: the executable is the system one, the profile a fresh temp dir.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../tools/serve.mjs';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Opens the page (index.html, or the page named by path) and collects what it logs. close()
// undoes everything open() did.
export async function openPlayground({ width = 1200, height = 760, path: pagePath = '' } = {}) {
  const { server, url } = await startServer({ port: 0 });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'reach-web-test-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width, height },
    deviceScaleFactor: 1,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('console', (message) => {
    const type = message.type();
    if (type === 'error' || type === 'warning') problems.push(`${type}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  const close = async () => {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(profile, { recursive: true, force: true });
  };
  try {
    await page.goto(url + pagePath);
    await page.waitForFunction(() => window.reachState?.ready, null, { timeout: 10000 });
  } catch (error) {
    await close();
    throw new Error(`the page did not start (${error.message}); problems: ${problems.join('; ') || 'none'}`);
  }
  return { page, problems, close };
}
