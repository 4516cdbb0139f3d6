// A first visit's page arrives with its first screen written by the server
// (server/src/web/first_screen/: the lists' first cards, a product, a page's heading
// and words), so a phone on a slow link shows what it came for from the HTML alone. The app then starts out of sight, and takes the first screen's place
// once its page has something to show (no spinner, no skeleton in between).
// Without a first screen (the service worker's copy of the app, which later visits
// open, or a page that changes per person), the app starts at once in the root.
//
// The sign-in form (`data-early`) can be filled before the app runs: this file, the
// page's first script (~3 KB), enables it, and what is typed there is the app's once it
// takes over. On a new phone on slow 3G that is ~6 s of typing instead of waiting. A
// press of its button sends the sign-in at once (lib/early-sign-in.ts), as the app's
// client would (JSON, never a plain form: its fields have no names), and says the
// server's answer: after a yes the app opens at the home; after a no the form is the
// person's again, and the app's own form, when it takes over, takes that answer and says
// it again. The other forms wait for the app (disabled).
import { forgetEarlySignIn, isSignedIn, signInEarly, takeEarlySession, type SignedIn } from './early-sign-in';

/** The mark the server puts on its first screen. */
const FIRST_SCREEN = '[data-first-screen]';
/** What the app shows while its page is not ready (spinners, skeleton cards). */
const BUSY = '.spinner-block, [aria-busy="true"]';
/** The longest the first screen's main picture may hold the app's start. */
const PAINT_WAIT_MS = 3000;
/** The longest the first screen stays once the app runs, whatever the page is waiting for. */
const SWAP_LIMIT_MS = 15000;

interface Boot {
  /** `signedIn`: the early sign-in's yes, when it came before the app's code. */
  boot(container: HTMLElement, signedIn?: SignedIn | null): void;
}

/**
 * `prepare`: called once when someone starts filling an early form (its first focus, or
 * its submission), for what that form leads to (the sign-in's home), so that it comes
 * with the app rather than after it.
 */
export async function startApp(root: HTMLElement, load: () => Promise<Boot>, prepare?: () => void): Promise<void> {
  if (!root.querySelector(FIRST_SCREEN)) {
    (await load()).boot(root);
    return;
  }
  const sent = openEarlyForms(root, prepare);
  searchAsTyped(root);
  // The app's code is fetched, and run, once the first screen and its first picture
  // are on screen (a first screen has no modulepreload links: without a main picture or
  // an early form, the page's last script asks for the code as soon as it has painted).
  await firstScreenPainted(root);
  const { boot } = await load();
  const app = document.createElement('div');
  const signedIn = takeEarlySession();
  boot(app, signedIn);
  await pageReady(app, SWAP_LIMIT_MS);
  app.id = root.id;
  const focused = document.activeElement;
  root.replaceWith(app);
  carryOver(root, app, focused);
  // "Sign in" was pressed before the app ran, and its answer has not opened the home: the
  // app's own form sends it, with its checks (taking the early answer), once React has
  // taken in what was carried over.
  if (sent.size && !signedIn) {
    await nextFrame();
    app.querySelector<HTMLFormElement>('main form')?.requestSubmit();
  }
}

/**
 * Enables the first screen's early forms (`openSignIn`); answers the set of those pressed
 * meanwhile and not changed since. `prepare`: as for `startApp`.
 */
export function openEarlyForms(root: HTMLElement, prepare?: () => void): Set<HTMLFormElement> {
  const sent = new Set<HTMLFormElement>();
  let prepared = false;
  const started = () => {
    if (!prepared) prepare?.();
    prepared = true;
  };
  root.querySelectorAll<HTMLFormElement>('form[data-early]').forEach((form) => {
    form.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button').forEach((field) => {
      field.disabled = false;
    });
    form.addEventListener('focusin', started);
    openSignIn(form, sent, started);
  });
  return sent;
}

/** How long after the last key a word typed before the app runs is searched. */
const TYPED_SEARCH_MS = 300;

/**
 * A list's search typed before the app runs searches as one types, as the app's does: a
 * moment after the last key, the server's first screen for that word (this address with
 * `?q=`, its main content alone) is fetched, and its list, chips and status take the place of these around the
 * form (which stays, with what is typed and the keyboard open). Until it answers, the
 * status says the word is being searched (`data-searching`, "{{q}}" standing for it);
 * with no answer, that the search key searches (`data-enter`: the form's plain send).
 */
function searchAsTyped(root: HTMLElement): void {
  root.querySelectorAll<HTMLInputElement>('input[type="search"][data-enter]').forEach((field) => {
    const form = field.form;
    const section = form?.parentElement;
    const status = () => section?.querySelector<HTMLElement>('[role="status"]');
    if (!form || !section || !status()) return;
    const say = (words: string | undefined, typed: string) => (words ?? '').replace('{{q}}', typed);
    let timer = 0;
    let asking = new AbortController();
    const search = async (typed: string) => {
      const address = new URL(location.href);
      if (typed) address.searchParams.set('q', typed);
      else address.searchParams.delete('q');
      try {
        // The page's main content alone (server/src/web/first_screen): ~2 KB, not the page's ~11.
        const response = await fetch(address, {
          headers: { 'x-first-screen': 'main' },
          priority: 'high',
          signal: asking.signal,
        });
        const page = new DOMParser().parseFromString(await response.text(), 'text/html');
        const fresh = page.querySelector('[data-first-screen] form[role="search"]')?.parentElement;
        if (field.value.trim() !== typed || !root.contains(form)) return;
        if (!response.ok || !fresh) throw new Error(`no first screen (${response.status})`);
        // Around the form, never the form itself: moving it would close the keyboard.
        [...section.children].forEach((old) => old !== form && old.remove());
        let before = true;
        for (const part of [...fresh.children]) {
          if (part.matches('form[role="search"]')) before = false;
          else if (before) form.before(part);
          else section.append(part);
        }
        history.replaceState(history.state, '', address.pathname + address.search);
      } catch {
        if (field.value.trim() === typed) status()!.textContent = say(field.dataset.enter, typed);
      }
    };
    field.addEventListener('input', () => {
      const typed = field.value.trim();
      if (typed) status()!.textContent = say(field.dataset.searching, typed);
      // A word typed on: the earlier word's answer would only take the link's bytes.
      clearTimeout(timer);
      asking.abort();
      asking = new AbortController();
      timer = window.setTimeout(() => void search(typed), TYPED_SEARCH_MS);
    });
  });
}

/**
 * The sign-in form of the first screen: a press sends it at once (not as a plain form),
 * its button saying it is on its way (`data-busy`). The server's yes is said under it
 * (`data-signed-in`); a no, no answer or a field left blank, above the fields
 * (`data-refusals`: the words for each code), and the form is the person's again. The
 * app's own words for each, written by the server. Pressed and not changed since, the
 * form is in `sent`: the app's form sends it when it takes over, with its checks, taking
 * the answer already there (a no is said again, in the same words), or asking again when
 * none came.
 */
function openSignIn(form: HTMLFormElement, sent: Set<HTMLFormElement>, started: () => void): void {
  const fields = [...form.querySelectorAll('input')];
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const label = button?.textContent ?? '';
  let words: Record<string, string> = {};
  try {
    words = JSON.parse(form.dataset.refusals ?? '{}') as Record<string, string>;
  } catch {
    // Said by the app when it takes over.
  }
  const refusal = (code: unknown) => (typeof code === 'string' ? words[code] : undefined) ?? words.fallback;
  let sending = false;
  const busy = (on: boolean) => {
    fields.forEach((field) => (field.readOnly = on));
    if (!button) return;
    button.disabled = on;
    button.textContent = on ? (button.dataset.busy ?? label) : label;
  };
  /** Says `texts`: a yes under the button, a refusal's reasons above the fields. */
  const say = (texts: (string | undefined)[], refused: boolean) => {
    form.querySelectorAll('[data-said]').forEach((said) => said.remove());
    const lines = texts.filter((text): text is string => Boolean(text));
    if (lines.length === 0) return;
    const said = document.createElement(refused ? 'div' : 'p');
    said.dataset.said = '';
    if (refused) {
      said.className = 'error-box';
      said.setAttribute('role', 'alert');
      said.tabIndex = -1;
      said.append(...lines.map((text) => Object.assign(document.createElement('p'), { textContent: text })));
      form.prepend(said);
      said.focus();
    } else {
      said.className = 'success-line';
      said.setAttribute('role', 'status');
      said.textContent = lines.join(' ');
      button?.after(said);
    }
  };
  form.addEventListener('input', () => {
    // Changed after a no: the app's form sends nothing the person did not press.
    sent.delete(form);
    forgetEarlySignIn();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (sending) return;
    started();
    sent.add(form);
    const [name = '', password = ''] = fields.map((field) => field.value);
    // The app's checks (lib/validation.ts, validateLogin): nothing is sent.
    const blank = [!name.trim() && 'email_or_phone_required', !password && 'password_required'];
    if (blank.some(Boolean)) return say(blank.filter(Boolean).map(refusal), true);
    say([], false);
    busy(true);
    sending = true;
    signInEarly(name, password, (answer) => {
      sending = false;
      // A yes only with the person and their token in it (what the app starts signed in with).
      if (answer?.status === 200 && isSignedIn(answer.data)) return say([button?.dataset.signedIn], false);
      busy(false);
      say([refusal(answer ? (answer.data as { code?: unknown } | null)?.code : 'network_error')], true);
    });
  });
}

/**
 * What the person typed or chose in the first screen's search (and sort) or early form
 * before the app started, given to the app's own fields (React hears it as input), with
 * the focus; and the questions they opened (help's answers) stay open.
 */
export function carryOver(from: Element, to: Element, focused: Element | null): void {
  const opened = [...to.querySelectorAll<HTMLDetailsElement>('main details')];
  from.querySelectorAll<HTMLDetailsElement>('main details').forEach((question, index) => {
    if (question.open && opened[index]) opened[index].open = true;
  });
  const pairs = [
    ['input[type="search"]', 'input[type="search"]'],
    ['select', 'select'],
    // An early form's fields, in the order of the app's form (its name, its password).
    ['form[data-early] input', 'form input'],
  ];
  for (const [kind, theirs] of pairs) {
    const before = [...from.querySelectorAll<HTMLInputElement | HTMLSelectElement>(`main ${kind}`)];
    const after = [...to.querySelectorAll<HTMLInputElement | HTMLSelectElement>(`main ${theirs}`)];
    before.forEach((field, index) => {
      const target = after[index];
      if (!target) return;
      const changed =
        field instanceof HTMLSelectElement
          ? [...field.options].some((o) => o.selected !== o.defaultSelected)
          : field.value !== field.defaultValue;
      if (changed && target.value !== field.value) {
        const prototype = target instanceof HTMLSelectElement ? HTMLSelectElement : HTMLInputElement;
        Object.getOwnPropertyDescriptor(prototype.prototype, 'value')?.set?.call(target, field.value);
        target.dispatchEvent(new Event(target instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
      }
      if (field === focused) target.focus();
    });
  }
}

/**
 * Once the first screen is on screen with its main picture (the one fetched first)
 * loaded and decoded, or after PAINT_WAIT_MS: not the page's `load`, which on a slow
 * link also waits for the other cards' pictures. A picture decoded out of the page's
 * way (`decoding="async"`) paints a moment after it loads: the app's code waits for
 * that paint, so the page's largest content never shares the line with it.
 */
function firstScreenPainted(root: HTMLElement): Promise<void> {
  const picture = root.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  const loaded = !picture
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        if (picture.complete) return resolve();
        picture.addEventListener('load', () => resolve(), { once: true });
        picture.addEventListener('error', () => resolve(), { once: true });
      }).then(() => picture.decode().catch(() => undefined));
  return Promise.race([loaded, wait(PAINT_WAIT_MS)])
    .then(nextFrame)
    .then(nextFrame);
}

/** Resolves once `app` shows a page that waits for nothing, or after `limit` ms. */
export function pageReady(app: HTMLElement, limit: number): Promise<void> {
  const ready = () => app.querySelector('main') !== null && app.querySelector(BUSY) === null;
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      window.clearTimeout(timer);
      resolve();
    };
    const observer = new MutationObserver(() => {
      if (ready()) done();
    });
    const timer = window.setTimeout(done, limit);
    observer.observe(app, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
    if (ready()) done();
  });
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

/** The next frame, or 100 ms in a tab that draws none (hidden). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      window.clearTimeout(timer);
      resolve();
    });
  });
}
