// Training figures (docs/training.md), on a throw-away release server with the demo:
// what each demo course's "Download for offline" fetches, what a phone downloads on
// its first visit to /training until the cards show, and how long issuing a
// certificate and making its PDF take.
//
//   node bench/training.mjs        (needs target/release/mavuno and pwa/dist)
import { PHONE, countBytes, kindOf, launchChromium } from './phone.mjs';
import { WITH_APP, startServer } from './server.mjs';

const server = await startServer(WITH_APP);
const api = async (path, { token, method = 'GET', body } = {}) => {
  const headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${server.origin}/api/v1${path}`, { method, headers, body: body && JSON.stringify(body) });
  return response.json();
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const percentile = (values, p) => values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

try {
  console.log('"Download for offline" of each demo course (lessons + pictures, as the server counts it):');
  const { data: courses } = await api('/courses?sort=title');
  // An admin reads every course's lessons, the paid one's too.
  const admin = await api('/users/login', { method: 'POST', body: { user: { email: 'admin@mavuno.demo', password: 'mavuno-demo' } } });
  for (const c of courses) {
    const content = await api(`/courses/${c.id}/content`, { token: admin.user.token });
    console.log(`  ${kb(c.download_bytes).padStart(8)}  ${c.title} (${content.lessons.length} lessons, ${content.pictures.length} pictures)`);
  }

  const browser = await launchChromium();
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const { totals } = await countBytes(context, page, kindOf('catalogue and courses (sync pull)'));
  const started = performance.now();
  await page.goto(`${server.origin}/training?lng=en`);
  await page.getByText(/^Showing \d+ of \d+ courses$/).waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('.product-card img')].filter((img) => img.getBoundingClientRect().top < innerHeight).every((img) => img.complete));
  const shownMs = performance.now() - started;
  await browser.close();
  console.log(`first visit to /training, until the cards and their first pictures show (${shownMs.toFixed(0)} ms here):`);
  for (const [kind, bytes] of Object.entries(totals)) console.log(`  ${kind}: ${kb(bytes)}`);
  console.log(`  total: ${kb(Object.values(totals).reduce((a, b) => a + b, 0))}`);

  // A learner completes the English farming course through the API; the last event issues the certificate.
  const login = await api('/users/login', { method: 'POST', body: { user: { email: 'habimana@mavuno.demo', password: 'mavuno-demo' } } });
  const token = login.user.token;
  const course = courses.find((c) => c.language === 'en' && c.category === 'farming');
  await api(`/courses/${course.id}/enrol`, { token, method: 'POST' });
  const content = await api(`/courses/${course.id}/content`, { token });
  const event = (lesson, n) =>
    lesson.kind === 'quiz'
      ? { event_uid: `bench-${n}`, lesson_id: lesson.id, kind: 'quiz', answers: lesson.questions.map((q) => q.answer) }
      : { event_uid: `bench-${n}`, lesson_id: lesson.id, kind: 'completed' };
  const times = [];
  let issued;
  for (const [n, lesson] of content.lessons.entries()) {
    const t0 = performance.now();
    issued = await api(`/courses/${course.id}/progress`, { token, method: 'POST', body: event(lesson, n) });
    times.push(performance.now() - t0);
  }
  const code = issued.enrolment.certificate.code;
  console.log(`progress events: median ${percentile([...times], 50).toFixed(1)} ms; the last one, which issued certificate ${code}: ${times.at(-1).toFixed(1)} ms`);
  const pdfTimes = [];
  let size = 0;
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    const response = await fetch(`${server.origin}/api/v1/certificates/${code}/pdf?lang=${['en', 'fr', 'sw'][i % 3]}`);
    size = (await response.arrayBuffer()).byteLength;
    pdfTimes.push(performance.now() - t0);
  }
  console.log(`certificate PDF (${size} bytes), 50 requests one after another: p50 ${percentile([...pdfTimes], 50).toFixed(1)} ms, p95 ${percentile([...pdfTimes], 95).toFixed(1)} ms (request included)`);
  console.log(`server RSS after: ${server.rssMib().toFixed(0)} MiB`);
} finally {
  await server.stop();
}
