// Renders media/icon.svg (the Marketplace icon: a document's lines, one span highlighted, a check) to
// media/icon.png, 128 × 128, with the Debian chromium the e2e suite uses (playwright-core).
// The Marketplace and Open VSX need a PNG; run this after editing the SVG: `node scripts/icon.mjs`.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync(new URL('../media/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.SPANPROOF_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: new URL('../media/icon.png', import.meta.url).pathname, omitBackground: true });
} finally {
  await browser.close();
}
