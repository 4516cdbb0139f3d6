// What a first visit costs on the wire, counted at the phone's network (the browser
// tests' SOCKS proxy, pwa/e2e/network.mjs): everything a new phone downloads for a page,
// its pictures, the first sync and the service worker's offline install, until the
// network has been quiet for 3 s. Then the network is cut and the public pages, and
// the pages a signed-in buyer uses, are opened again to check they still open offline.
// Goal (issue 39): at most 300 KB for the whole first visit. `heads` is the part of `down`
// that is response status lines and headers: counted here over HTTP/1.1, where each of a
// first visit's ~90 responses repeats them whole; behind an HTTP/2 proxy (production) HPACK
// sends a repeated header in a few bytes, so `down - heads` is the floor a phone pays.
//
//   node bench/first-visit-wire.mjs [--lang fr] [path ...]
//   (starts its own release server with the demo: cargo build --release first)
import {
  PHONE,
  controlledByServiceWorker,
  launchProfile,
  signIn,
} from "../pwa/e2e/harness.mjs";
import { settled } from "./phone.mjs";
import { WITH_APP, startServer } from "./server.mjs";

const args = process.argv.slice(2);
const langAt = args.indexOf("--lang");
const lang = langAt >= 0 ? args.splice(langAt, 2)[1] : "fr";
const paths = args.length > 0 ? args : ["/", "/marketplace", "/news"];
const LOCALES = { fr: "fr-CD", sw: "sw-KE", en: "en-US" };
const OFFLINE = [
  "/",
  "/marketplace",
  "/training",
  "/news",
  "/about",
  "/cart",
  "/product/1",
  "/course/1",
  "/news/1",
];

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The routes that do not open (their heading never shows) with the network cut. */
async function closedOffline(page, routes) {
  const closed = [];
  for (const route of routes) {
    const heading = page
      .locator("main h1, main h2, .dashboard-topbar h1")
      .first();
    const opened = await page.goto(`${server.origin}${route}`).then(
      () =>
        heading.waitFor({ timeout: 10_000 }).then(
          () => true,
          () => false,
        ),
      () => false,
    );
    if (!opened) closed.push(route);
  }
  return closed;
}

const said = (closed, routes) =>
  closed.length === 0
    ? `all ${routes.length} open`
    : `FAILED: ${closed.join(" ")}`;

const server = await startServer(WITH_APP);
try {
  console.log(
    `First visit on a new phone (${lang}), bytes at the phone's network:`,
  );
  console.log("page             down     heads        up   offline afterwards");
  for (const path of paths) {
    const phone = await launchProfile({
      ...PHONE,
      locale: LOCALES[lang] ?? lang,
    });
    const { network } = phone.context;
    const page = phone.context.pages()[0] ?? (await phone.context.newPage());
    await page.goto(`${server.origin}${path}`);
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      if (registration.active?.state !== "activated") {
        await new Promise((resolve) =>
          registration.active?.addEventListener("statechange", resolve),
        );
      }
    });
    await settled(network);
    const { down, heads, up } = network.bytes;
    await phone.context.setOffline(true);
    const closed = await closedOffline(page, OFFLINE);
    console.log(
      `${path.padEnd(14)} ${kb(down).padStart(9)} ${kb(heads).padStart(9)} ${kb(up).padStart(9)}   ${said(closed, OFFLINE)}`,
    );
    await phone.close();
  }

  // A buyer signs in on a new phone: the screens they use open offline afterwards.
  const phone = await launchProfile({
    ...PHONE,
    locale: LOCALES[lang] ?? lang,
  });
  const page = phone.context.pages()[0] ?? (await phone.context.newPage());
  await signIn(page, server.origin, "buyer@mavuno.demo");
  await controlledByServiceWorker(page);
  await settled(phone.context.network);
  const { down, heads, up } = phone.context.network.bytes;
  await phone.context.setOffline(true);
  const BUYER = ["/dashboard", "/orders", "/cart", "/profile", "/marketplace"];
  const closed = await closedOffline(page, BUYER);
  console.log(
    `buyer sign-in  ${kb(down).padStart(9)} ${kb(heads).padStart(9)} ${kb(up).padStart(9)}   ${said(closed, BUYER)}`,
  );
  await phone.close();
} finally {
  await server.stop();
}
process.exit(0);
