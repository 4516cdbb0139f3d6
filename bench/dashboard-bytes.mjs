// What each role downloads for its dashboard: from the tap on "Sign in" on a phone
// that has the sign-in page open (the app shell already loaded) until the dashboard's
// home has its figures and the first sync is done, by kind, as it arrives compressed;
// then what opening the dashboard again costs (a reload, the HTTP cache warm). The
// service worker is blocked so that every byte is the page's own.
//
//   node bench/dashboard-bytes.mjs        (needs target/release/mavuno and pwa/dist)
import { PHONE, countBytes, kindOf, launchChromium } from "./phone.mjs";
import { startServer } from "./server.mjs";

const ROLES = [
  ["admin", "admin@mavuno.demo", "Recent activity"],
  ["farmer", "farmer@mavuno.demo", /^From this phone · last synced/],
  ["buyer", "buyer@mavuno.demo", /^From this phone · last synced/],
  ["field agent", "agent@mavuno.demo", /^From this phone · last synced/],
];

const kb = (bytes) => `${((bytes ?? 0) / 1024).toFixed(1)} KB`;
const sum = (totals) => Object.values(totals).reduce((a, b) => a + b, 0);

const server = await startServer(["--demo"]);
const browser = await launchChromium();
try {
  console.log(
    "role          first open: app      API  pictures    total | again: total",
  );
  for (const [role, email, ready] of ROLES) {
    const context = await browser.newContext({
      ...PHONE,
      serviceWorkers: "block",
    });
    const page = await context.newPage();
    await page.goto(`${server.origin}/login?lng=en`);
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill("mavuno-demo");
    const first = await countBytes(context, page, kindOf("API"));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.origin}/dashboard`);
    await page.getByText(ready).first().waitFor();
    await page.waitForTimeout(3000); // the open app keeps a request waiting for changes: never idle
    const t = { ...first.totals };
    const again = await countBytes(context, page, kindOf("API"));
    await page.reload();
    await page.getByText(ready).first().waitFor();
    await page.waitForTimeout(3000); // the open app keeps a request waiting for changes: never idle
    console.log(
      `${role.padEnd(13)} ${kb(t["app (HTML, JS, CSS)"]).padStart(14)} ${kb(t.API).padStart(8)} ${kb(t.pictures).padStart(9)} ` +
        `${kb(sum(t)).padStart(8)} | ${kb(sum(again.totals)).padStart(8)}`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
