// The admin home (GET /admin/overview: figures and recent activity) and each
// Analytics chart (GET /admin/analytics/{chart}) with 10,000
// people, 10,000 products and 50,000 orders: server time and bytes. The rows are
// written straight into a demo database with sqlite3 (seeding 50,000 orders
// through the API would take longer than the measurement is worth), then a
// release server is started on it.
//
//   node bench/admin-overview.mjs          (needs target/release/mavuno and sqlite3)
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startServer } from "./server.mjs";

const PEOPLE = 10_000;
const PRODUCTS = 10_000;
const ORDERS = 50_000;
const RUNS = 50;

const demo = await startServer(["--demo"]);
await demo.stop({ keep: true });
const seeding = performance.now();
const now = new Date().toISOString().slice(0, 19) + "Z";
execFileSync("sqlite3", [
  join(demo.dataDir, "mavuno.db"),
  `PRAGMA foreign_keys = ON;
   BEGIN;
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${PEOPLE})
   INSERT INTO users (email, password_hash, first_name, last_name, phone_number, country, role, status, created_at, updated_at)
   SELECT 'bench' || i || '@example.com', '!', 'Bench', 'Person ' || i, '+24398' || printf('%07d', i), 'DRC',
          CASE WHEN i % 10 = 0 THEN 'farmer' ELSE 'user' END, 'active', '${now}', '${now}' FROM n;
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${PRODUCTS})
   INSERT INTO products (uid, farmer_id, title, description, category, unit, quantity, price_cents, current_price_cents,
                         status, search_text, version, created_at, updated_at)
   SELECT 'bench-product-' || i, (SELECT id FROM users WHERE email = 'bench' || ((i % ${PEOPLE / 10}) * 10 + 10) || '@example.com'),
          'Beans lot ' || i, 'Dry beans from Kabare', 'grains', 'kg', 1 + i % 40, 120, 120, 'active',
          'beans lot ' || i || ' dry beans from kabare', 1000 + i, '${now}', '${now}' FROM n;
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ORDERS})
   INSERT INTO orders (uid, buyer_id, subtotal_cents, shipping_cents, total_cents, payment_method, delivery, first_name,
                       last_name, email, phone, address, city, postal_code, country, version, created_at, updated_at)
   SELECT 'bench-order-' || i, (SELECT id FROM users WHERE email = 'bench' || (1 + i % ${PEOPLE}) || '@example.com'),
          240, 0, 240, 'cash_on_delivery', 'pickup', 'Bench', 'Buyer', '', '+243990000000', 'Kabare', 'Bukavu', '', 'DRC',
          20000 + i, '${now}', '${now}' FROM n;
   INSERT INTO order_parts (order_id, farmer_id, status, subtotal_cents, shipping_cents, created_at, updated_at)
   SELECT o.id, p.farmer_id, CASE WHEN o.id % 3 = 0 THEN 'delivered' ELSE 'processing' END, 240, 0, o.created_at, o.created_at
   FROM orders o JOIN products p ON p.uid = 'bench-product-' || (1 + o.id % ${PRODUCTS}) WHERE o.uid LIKE 'bench-order-%';
   INSERT INTO order_events (order_id, kind, at) SELECT id, 'placed', created_at FROM orders WHERE uid LIKE 'bench-order-%';
   COMMIT;`,
]);
console.log(
  `seeded ${PEOPLE} people, ${PRODUCTS} products, ${ORDERS} orders in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
);

const server = await startServer([], { dataDir: demo.dataDir });
try {
  const login = await fetch(`${server.origin}/api/v1/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      user: { email: "admin@mavuno.demo", password: "mavuno-demo" },
    }),
  });
  const token = (await login.json()).user.token;
  const times = [];
  let body = "";
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const response = await fetch(`${server.origin}/api/v1/admin/overview`, {
      headers: { authorization: `Bearer ${token}` },
    });
    body = await response.text();
    if (response.status !== 200)
      throw new Error(`overview: ${response.status} ${body}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const figures = JSON.parse(body).figures;
  console.log(`figures: ${JSON.stringify(figures)}`);
  console.log(
    `GET /admin/overview: median ${times[RUNS / 2].toFixed(1)} ms, p95 ${times[Math.floor(RUNS * 0.95)].toFixed(1)} ms, ` +
      `${body.length} bytes (${gzipSync(body).length} gzipped); server RSS ${server.rssMib().toFixed(0)} MiB`,
  );
  // Each Analytics chart on the same data, for a year and for all time.
  for (const chart of [
    "goals",
    "signups",
    "applications",
    "listings",
    "orders",
    "top_products",
    "top_farmers",
    "courses",
  ]) {
    for (const period of ["12m", "all"]) {
      const took = [];
      let size = 0;
      for (let run = 0; run < 10; run++) {
        const started = performance.now();
        const response = await fetch(
          `${server.origin}/api/v1/admin/analytics/${chart}?period=${period}`,
          {
            headers: { authorization: `Bearer ${token}` },
          },
        );
        const text = await response.text();
        if (response.status !== 200)
          throw new Error(`${chart}: ${response.status} ${text}`);
        took.push(performance.now() - started);
        size = text.length;
      }
      took.sort((a, b) => a - b);
      console.log(
        `GET /admin/analytics/${chart}?period=${period}: median ${took[5].toFixed(1)} ms, ${size} bytes`,
      );
    }
  }
} finally {
  await server.stop();
}
