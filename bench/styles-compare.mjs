// Not a benchmark: a check for a change to the stylesheets that must not change what
// anyone sees (issue 38, item 7). Serves two builds of the app side by side, each on a
// demo server of its own, opens the same screens in both (every public page, then each
// role's dashboard sections and pages, at 360 and 1280 px), and compares the computed
// style of every element and pseudo-element. Prints each difference; exits 1 if any.
//
//   node bench/styles-compare.mjs <build before> <build after>
//   e.g. cp -r pwa/dist /tmp/before; (change the CSS); cd pwa && npm run build; cd ..
//        node bench/styles-compare.mjs /tmp/before pwa/dist
//
// Each screen is read three ways: the server's first screen with JavaScript off (its
// styles inlined in <head>), the app opened at that address (the app's page, its styles
// at the end of <body>), and the app reached by a link from the home page (the app
// over a first screen, its styles in <head>): a stylesheet a lazy screen brings comes
// after the app's styles in one and before them in the other.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { signIn } from "../pwa/e2e/harness.mjs";
import { launchChromium } from "./phone.mjs";
import { startServer } from "./server.mjs";

const [before, after] = process.argv.slice(2).map((dir) => resolve(dir));
if (!before || !after)
  throw new Error(
    "usage: node bench/styles-compare.mjs <build before> <build after>",
  );

const PUBLIC = [
  "/",
  "/marketplace",
  "/training",
  "/news",
  "/prices",
  "/about",
  "/programs",
  "/contact",
  "/help",
].concat([
  "/terms",
  "/login",
  "/register",
  "/forgot-password",
  "/cart",
  "/no-such-page",
]);
const ROLES = {
  "buyer@mavuno.demo": [
    "home",
    "applications",
    "orders",
    "wishlist",
    "training",
    "phone",
    "profile",
  ],
  "farmer@mavuno.demo": [
    "home",
    "products",
    "applications",
    "orders",
    "earnings",
    "training",
    "profile",
  ],
  "agent@mavuno.demo": ["home", "farmers", "applications", "prices", "profile"],
  "admin@mavuno.demo": [
    "home",
    "applications",
    "users",
    "blogs",
    "products",
    "orders",
    "courses",
  ].concat(["analytics", "prices", "settings", "profile"]),
};
const SIGNED_IN_PAGES = ["/profile", "/orders", "/checkout", "/cart"];
const WIDTHS = [360, 1280];

/** Every element's computed style (and its ::before and ::after), by its place in the tree. */
function readStyles() {
  const out = {};
  const place = (el) => {
    const steps = [];
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      steps.push(
        `${e.tagName.toLowerCase()}${e.className && typeof e.className === "string" ? `.${e.className.trim().split(/\s+/).join(".")}` : ""}:${[...(e.parentElement?.children ?? [])].indexOf(e)}`,
      );
    }
    return steps.reverse().join(">");
  };
  for (const el of document.body.querySelectorAll("*")) {
    for (const pseudo of [null, "::before", "::after"]) {
      const style = getComputedStyle(el, pseudo);
      if (pseudo && (style.content === "none" || style.content === "normal"))
        continue;
      const props = {};
      for (let i = 0; i < style.length; i++)
        props[style[i]] = style.getPropertyValue(style[i]);
      out[`${place(el)}${pseudo ?? ""}`] = props;
    }
  }
  return out;
}

/** Waits for the screen to stop changing: no element added, removed or restyled for 700 ms
 * (the app long-polls the server, so the network is never quiet once someone signs in). */
async function settle(page) {
  await page.waitForLoadState("load");
  await page.evaluate(
    () =>
      new Promise((done) => {
        let timer = setTimeout(finish, 700);
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(finish, 700);
        });
        const giveUp = setTimeout(finish, 10_000);
        function finish() {
          observer.disconnect();
          clearTimeout(giveUp);
          done();
        }
        observer.observe(document, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
      }),
  );
}

const differences = [];
function compare(label, a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  let missing = 0;
  for (const key of keys) {
    if (!a[key] || !b[key]) {
      missing += 1;
      continue;
    }
    for (const prop of Object.keys(a[key])) {
      if (a[key][prop] !== b[key][prop])
        differences.push(
          `${label}\n  ${key}\n  ${prop}: ${a[key][prop]}  →  ${b[key][prop]}`,
        );
    }
  }
  if (missing)
    differences.push(
      `${label}: ${missing} elements in one build only (the screens differ: read again)`,
    );
  return Object.keys(a).length;
}

async function side(server, browser, width, javaScript) {
  const context = await browser.newContext({
    viewport: { width, height: 800 },
    javaScriptEnabled: javaScript,
    reducedMotion: "reduce",
    serviceWorkers: "block",
    locale: "en",
  });
  return { context, page: await context.newPage(), origin: server.origin };
}

/** Signs in, then waits until the screens a signed-in person may open are fetched (they are
 * when the phone is idle: app/warm-screens.ts), so both builds hold the same stylesheets. */
async function signInAndWait({ page, origin }, email) {
  await signIn(page, origin, email);
  await page.waitForTimeout(6000);
  await settle(page);
}

/** Opens `path` both ways (at its address, and by a link from the home page) on both builds and compares. */
async function both(sides, label, path) {
  let elements = 0;
  const open = async ({ page, origin }, how) => {
    if (how === "address") await page.goto(`${origin}${path}`);
    else {
      await page.goto(`${origin}/?lng=en`);
      await settle(page);
      await page.evaluate((to) => {
        history.pushState({}, "", to);
        dispatchEvent(new PopStateEvent("popstate"));
      }, path);
    }
    await settle(page);
    return page.evaluate(readStyles);
  };
  for (const how of ["address", "from home"]) {
    process.stderr.write(`${label} ${path} (${how})\n`);
    const [a, b] = await Promise.all(sides.map((s) => open(s, how)));
    elements += compare(`${label} ${path} (${how})`, a, b);
  }
  return elements;
}

// One demo, copied: both builds show the same records (the demo's orders are drawn at random).
const seeded = await startServer(["--demo"]);
await seeded.stop({ keep: true });
const copy = mkdtempSync(join(tmpdir(), "mavuno-bench-"));
cpSync(seeded.dataDir, copy, { recursive: true });
const servers = await Promise.all(
  [
    [before, seeded.dataDir],
    [after, copy],
  ].map(([web, dataDir]) => startServer(["--web-dir", web], { dataDir })),
);
const browser = await launchChromium();
let screens = 0;
let elements = 0;
try {
  for (const width of WIDTHS) {
    // The server's first screens, without the app.
    const bare = await Promise.all(
      servers.map((s) => side(s, browser, width, false)),
    );
    for (const path of PUBLIC) {
      const [a, b] = await Promise.all(
        bare.map(async ({ page, origin }) => {
          await page.goto(`${origin}${path}`);
          return page.evaluate(readStyles);
        }),
      );
      elements += compare(`${width} px, first screen ${path}`, a, b);
      screens += 1;
    }
    await Promise.all(bare.map(({ context }) => context.close()));

    // The app, for a visitor, with one product, course and article of each list.
    const visitor = await Promise.all(
      servers.map((s) => side(s, browser, width, true)),
    );
    const first = async (list, selector) => {
      await visitor[0].page.goto(`${visitor[0].origin}${list}`);
      await settle(visitor[0].page);
      return new URL(
        await visitor[0].page.locator(selector).first().getAttribute("href"),
        visitor[0].origin,
      ).pathname;
    };
    const details = [
      await first("/marketplace", 'a[href^="/product/"]'),
      await first("/training", 'a[href^="/course/"]'),
    ].concat(await first("/news", 'a[href^="/news/"]'));
    for (const path of [...PUBLIC, ...details]) {
      elements += await both(visitor, `${width} px, visitor`, path);
      screens += 2;
    }
    await Promise.all(visitor.map(({ context }) => context.close()));

    for (const [email, sections] of Object.entries(ROLES)) {
      const signedIn = await Promise.all(
        servers.map((s) => side(s, browser, width, true)),
      );
      await Promise.all(signedIn.map((s) => signInAndWait(s, email)));
      // The buyer's cart holds a product, so that the cart and checkout have lines.
      if (email.startsWith("buyer")) {
        for (const { page, origin } of signedIn) {
          await page.goto(`${origin}${details[0]}`);
          await page
            .getByRole("button", { name: /add to cart/i })
            .first()
            .click();
          await settle(page);
        }
      }
      for (const section of sections) {
        elements += await both(
          signedIn,
          `${width} px, ${email}`,
          `/dashboard?section=${section}`,
        );
        screens += 2;
      }
      for (const path of SIGNED_IN_PAGES) {
        elements += await both(signedIn, `${width} px, ${email}`, path);
        screens += 2;
      }
      await Promise.all(signedIn.map(({ context }) => context.close()));
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.stop()));
}

for (const d of differences) console.log(d);
console.log(
  `${screens} screens, ${elements} elements read in each build: ${differences.length} differences`,
);
process.exitCode = differences.length ? 1 : 0;
