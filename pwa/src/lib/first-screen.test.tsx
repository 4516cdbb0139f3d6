import { act, render, within } from '@testing-library/react';
import { useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleUser, scriptFetch, type Reply } from '../test-support';
import { forgetEarlySignIn, takeEarlySession, takeEarlySignIn, type SignedIn } from './early-sign-in';
import { carryOver, openEarlyForms, pageReady, startApp } from './first-screen';

const yes = { status: 200, body: { success: true, user: { ...sampleUser, token: 'fresh' } } };

afterEach(() => {
  vi.unstubAllGlobals();
  // A test that failed half way leaves nothing to the next.
  forgetEarlySignIn();
  document.body.replaceChildren();
});

/** The server's first screen: a search form, as web/first_screen writes it. */
function firstScreen(): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = `<div data-first-screen="marketplace"><main id="main"><form role="search">
    <input id="first-q" name="q" type="search" value="">
    <select name="sort"><option value="name" selected>Name</option><option value="rating">Rating</option></select>
  </form><p>Arabica</p></main></div>`;
  document.body.append(root);
  return root;
}

/** The server's sign-in first screen: an early form, disabled until a script opens it. */
function signInScreen(): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  const refusals = JSON.stringify({
    invalid_credentials: 'Mot de passe incorrect',
    password_required: 'Le mot de passe est obligatoire',
    fallback: 'Échec',
  });
  root.innerHTML = `<div data-first-screen="login"><main id="main"><form class="card form" data-early data-refusals='${refusals}'>
    <input id="first-username" type="text" disabled><input id="first-password" type="password" disabled>
    <button type="submit" data-busy="Connexion…" data-signed-in="Connecté" disabled>Se connecter</button>
  </form></main></div>`;
  document.body.append(root);
  return root;
}

/** The app's sign-in form: what it was sent with. */
function SignIn({ onSent }: { onSent: (sent: string) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSent(`${name}/${password}`);
  };
  return (
    <main>
      <form onSubmit={submit}>
        <input aria-label="name" value={name} onChange={(e) => setName(e.target.value)} />
        <input aria-label="password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit">Se connecter</button>
      </form>
    </main>
  );
}

function Search() {
  const [q, setQ] = useState('');
  const [sort, setSort] = useState('name');
  return (
    <main>
      <input type="search" aria-label="search" value={q} onChange={(e) => setQ(e.target.value)} />
      <select aria-label="sort" value={sort} onChange={(e) => setSort(e.target.value)}>
        <option value="name">Name</option>
        <option value="rating">Rating</option>
      </select>
      <output>
        {q}|{sort}
      </output>
    </main>
  );
}

/**
 * The app started on the sign-in's first screen `root`, its code coming when the test says
 * (`come()`, once the first screen has painted and asked for it), and "Sign in" pressed
 * meanwhile: what the app's form sent (`sent`), and the yes it was started with (`given`).
 */
function signInApp(root: HTMLElement) {
  const seen: { sent: string; given: SignedIn | null | undefined } = { sent: '', given: undefined };
  const boot = (container: HTMLElement, signedIn?: SignedIn | null) => {
    seen.given = signedIn;
    act(() => createRoot(container).render(<SignIn onSent={(s) => (seen.sent = s)} />));
  };
  let come: (() => void) | null = null;
  const started = startApp(root, () => new Promise((resolve) => (come = () => resolve({ boot }))));
  root.querySelector<HTMLInputElement>('#first-username')!.value = 'amani@example.com';
  root.querySelector<HTMLInputElement>('#first-password')!.value = 'secret1';
  root.querySelector('form')!.requestSubmit();
  return Object.assign(seen, {
    come: async () => {
      await vi.waitFor(() => expect(come).not.toBeNull());
      come!();
      await started;
    },
  });
}

describe('the first screen', () => {
  it('hands what was typed and chosen, and the focus, to the app', () => {
    const root = firstScreen();
    const typed = root.querySelector<HTMLInputElement>('#first-q')!;
    typed.value = 'kahawa';
    typed.focus();
    root.querySelector('select')!.value = 'rating';
    const { container } = render(<Search />);
    act(() => carryOver(root, container, document.activeElement));
    expect(container.querySelector('output')?.textContent).toBe('kahawa|rating');
    expect(document.activeElement).toBe(container.querySelector('input'));
    root.remove();
  });

  it('opens the sign-in form before the app runs, sends a press of its button at once, and says the yes', async () => {
    const calls = scriptFetch({ 'POST /users/login': yes });
    const root = signInScreen();
    const sent = openEarlyForms(root);
    const [name, password] = root.querySelectorAll('input');
    expect(name!.disabled || password!.disabled).toBe(false);
    name!.value = 'amani@example.com';
    password!.value = 'secret1';
    const form = root.querySelector('form')!;
    const submit = new Event('submit', { cancelable: true });
    form.dispatchEvent(submit);
    // Not a plain form: the app's request, and what it sent stays as it was.
    expect(submit.defaultPrevented).toBe(true);
    expect(sent.has(form)).toBe(true);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /users/login']);
    expect([name!.readOnly, password!.readOnly]).toEqual([true, true]);
    const button = root.querySelector('button')!;
    expect([button.textContent, button.disabled]).toEqual(['Connexion…', true]);
    const said = await vi.waitFor(() => within(root).getByRole('status'));
    expect(said.textContent).toBe('Connecté');
    expect(takeEarlySession()?.user.token).toBe('fresh');
    root.remove();
  });

  it('says a no above the fields in the page’s words, and gives the form back; changed, the app sends nothing', async () => {
    scriptFetch({ 'POST /users/login': { status: 401, body: { code: 'invalid_credentials', message: 'No' } } });
    const root = signInScreen();
    const sent = openEarlyForms(root);
    const [name, password] = root.querySelectorAll('input');
    name!.value = 'amani@example.com';
    password!.value = 'wrong';
    const form = root.querySelector('form')!;
    form.requestSubmit();
    const alert = await vi.waitFor(() => within(root).getByRole('alert'));
    expect(alert.textContent).toBe('Mot de passe incorrect');
    expect(document.activeElement).toBe(alert);
    const button = root.querySelector('button')!;
    expect([button.textContent, button.disabled, password!.readOnly]).toEqual(['Se connecter', false, false]);
    // Unchanged, the app's form says it again, from this answer.
    expect(sent.has(form)).toBe(true);
    password!.value = 'secret1';
    password!.dispatchEvent(new Event('input', { bubbles: true }));
    expect(sent.has(form)).toBe(false);
    expect(await takeEarlySignIn('amani@example.com', 'wrong')).toBeNull();
    // Pressed again: sent again, the no gone meanwhile.
    form.requestSubmit();
    expect(within(root).queryByRole('alert')).toBeNull();
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => within(root).getByRole('alert'));
    await takeEarlySignIn('amani@example.com', 'secret1');
    root.remove();
  });

  it.each<[string, Reply]>([
    ['the server could not be reached', 'offline'],
    // What the app starts signed in with is the person and their token (isSignedIn).
    ['an answer of 200 signed nobody in', { status: 200, body: { success: true } }],
  ])('says a no in the words for any other no when %s, and gives the form back', async (_, answer) => {
    scriptFetch({ 'POST /users/login': answer });
    const root = signInScreen();
    openEarlyForms(root);
    root.querySelector<HTMLInputElement>('#first-username')!.value = 'amani@example.com';
    root.querySelector<HTMLInputElement>('#first-password')!.value = 'secret1';
    root.querySelector('form')!.requestSubmit();
    expect((await vi.waitFor(() => within(root).getByRole('alert'))).textContent).toBe('Échec');
    expect(within(root).queryByRole('status')).toBeNull();
    expect(root.querySelector('button')!.disabled).toBe(false);
    expect(takeEarlySession()).toBeNull();
    root.remove();
  });

  it('says a field left blank in the app’s words, sends nothing, and the app’s checks say it again', () => {
    const calls = scriptFetch({});
    const root = signInScreen();
    const sent = openEarlyForms(root);
    root.querySelector<HTMLInputElement>('#first-username')!.value = 'amani@example.com';
    root.querySelector('form')!.requestSubmit();
    expect(within(root).getByRole('alert').textContent).toBe('Le mot de passe est obligatoire');
    expect(root.querySelector<HTMLInputElement>('#first-password')!.readOnly).toBe(false);
    expect(sent.size).toBe(1);
    expect(calls).toEqual([]);
    root.remove();
  });

  it('asks once, when someone starts filling the early form, for what it leads to', () => {
    const root = signInScreen();
    let asked = 0;
    openEarlyForms(root, () => (asked += 1));
    expect(asked).toBe(0);
    root.querySelector<HTMLInputElement>('#first-username')!.focus();
    root.querySelector<HTMLInputElement>('#first-password')!.focus();
    root.querySelector('form')!.requestSubmit();
    expect(asked).toBe(1);
    root.remove();
  });

  it('gives the app what was typed in the early form, then sends its own form when the answer was a no', async () => {
    scriptFetch({ 'POST /users/login': { status: 401, body: { code: 'invalid_credentials', message: 'No' } } });
    const root = signInScreen();
    const app = signInApp(root);
    // The app's code comes after the answer.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await app.come();
    expect(app.given).toBeNull();
    expect(app.sent).toBe('amani@example.com/secret1');
    document.getElementById('root')?.remove();
    await takeEarlySignIn('amani@example.com', 'secret1');
  });

  it('opens the app signed in when the server said yes before the app’s code came, sending nothing again', async () => {
    scriptFetch({ 'POST /users/login': yes });
    const root = signInScreen();
    const app = signInApp(root);
    await vi.waitFor(() => within(root).getByRole('status'));
    await app.come();
    expect(app.given?.user.token).toBe('fresh');
    expect(app.sent).toBe('');
    document.getElementById('root')?.remove();
  });

  it('keeps the questions opened in the first screen open in the app', () => {
    const root = document.createElement('div');
    root.innerHTML = `<main><details><summary>One</summary><p>1</p></details>
      <details open><summary>Two</summary><p>2</p></details></main>`;
    const { container } = render(
      <main>
        <details>
          <summary>One</summary>
        </details>
        <details>
          <summary>Two</summary>
        </details>
      </main>,
    );
    carryOver(root, container, null);
    expect([...container.querySelectorAll('details')].map((d) => d.open)).toEqual([false, true]);
  });

  it('leaves the app alone when nothing was typed', () => {
    const root = firstScreen();
    const { container } = render(<Search />);
    act(() => carryOver(root, container, null));
    expect(container.querySelector('output')?.textContent).toBe('|name');
    root.remove();
  });

  it('waits for a page with nothing loading, and no longer than its limit', async () => {
    const app = document.createElement('div');
    let ready = false;
    void pageReady(app, 60_000).then(() => (ready = true));
    app.innerHTML = '<main><div class="spinner-block"></div></main>';
    await Promise.resolve();
    expect(ready).toBe(false);
    app.innerHTML = '<main><section aria-busy="true"></section></main>';
    await new Promise((r) => setTimeout(r, 0));
    expect(ready).toBe(false);
    app.innerHTML = '<main><h1>Marché</h1></main>';
    await new Promise((r) => setTimeout(r, 0));
    expect(ready).toBe(true);

    let late = false;
    void pageReady(document.createElement('div'), 5).then(() => (late = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(late).toBe(true);
  });

  it('starts the app in the root at once when the server wrote no first screen', async () => {
    const root = document.createElement('div');
    root.innerHTML = '<div class="boot"></div>';
    let started: HTMLElement | null = null;
    await startApp(root, async () => ({ boot: (c: HTMLElement) => (started = c) }));
    expect(started).toBe(root);
  });

  it('searches a word typed before the app runs a moment after the last key, around the form, the latest word only', async () => {
    vi.useFakeTimers();
    const page = (q: string, cards: string[]) => `<div data-first-screen="marketplace"><main><section>
      <h1>Marketplace</h1>
      <form role="search"><input type="search" value="${q}" data-searching="Searching for “{{q}}”…"
        data-enter="Press the search key (Enter) to search for “{{q}}”."></form>
      <p role="status">Showing ${cards.length} of ${cards.length} products</p>
      <ul>${cards.map((c) => `<li>${c}</li>`).join('')}</ul></section></main></div>`;
    const asked: string[] = [];
    const answers: Record<string, () => Promise<Response>> = {
      haricot: () => Promise.resolve(new Response(page('haricot', ['Haricots rouges', 'Haricots verts']))),
      // The first word's answer comes after the second's: it is not shown.
      hari: () => new Promise((done) => setTimeout(() => done(new Response(page('hari', ['Stale']))), 2000)),
      café: () => Promise.reject(new TypeError('offline')),
    };
    const signals: AbortSignal[] = [];
    vi.stubGlobal('fetch', (address: URL, init: RequestInit) => {
      const q = address.searchParams.get('q') ?? '';
      asked.push(q);
      signals.push(init.signal!);
      expect(init.headers).toEqual({ 'x-first-screen': 'main' });
      return answers[q]!();
    });
    const root = document.createElement('div');
    root.innerHTML = page('', ['Arabica', 'Haricots rouges', 'Haricots verts']);
    document.body.append(root);
    // The app's code never comes in this test: the first screen stays.
    void startApp(root, () => new Promise(() => {}));
    const field = root.querySelector<HTMLInputElement>('input[type="search"]')!;
    const form = field.form!;
    field.focus();
    const type = (word: string) => {
      field.value = word;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    };
    const status = () => root.querySelector('[role="status"]')!.textContent;
    const cards = () => [...root.querySelectorAll('li')].map((li) => li.textContent);

    type('ha');
    await vi.advanceTimersByTimeAsync(200);
    type('hari');
    expect(status()).toBe('Searching for “hari”…');
    await vi.advanceTimersByTimeAsync(500);
    expect(asked).toEqual(['hari']);
    type('haricot');
    await vi.advanceTimersByTimeAsync(600);
    await vi.advanceTimersByTimeAsync(2000);
    expect(asked).toEqual(['hari', 'haricot']);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    expect(cards()).toEqual(['Haricots rouges', 'Haricots verts']);
    expect(status()).toBe('Showing 2 of 2 products');
    expect(root.querySelector('h1')!.textContent).toBe('Marketplace');
    // The same form, still focused (the keyboard stays open), and an address to come back to.
    expect(root.querySelector('form')).toBe(form);
    expect(document.activeElement).toBe(field);
    expect(location.search).toBe('?q=haricot');

    // No answer: the search key still searches, and the list stays as it was.
    type('café');
    await vi.advanceTimersByTimeAsync(600);
    expect(status()).toBe('Press the search key (Enter) to search for “café”.');
    expect(cards()).toEqual(['Haricots rouges', 'Haricots verts']);
    vi.useRealTimers();
    window.history.replaceState({}, '', '/');
  });
});
