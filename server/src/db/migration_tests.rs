//! Migrations that change what older databases hold: each test applies the
//! migrations before it, writes rows as they were, and migrates the rest.

use crate::db::Connection;

use super::sqlite::{MIGRATIONS, apply};
use super::*;

/// 0020 adds the listed flag and the search index: an older database's products
/// come out flagged and searchable, and the triggers keep both from then on.
#[test]
fn an_older_catalogue_is_flagged_and_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = connect(&dir.path().join(DB_FILE)).unwrap();
    for (index, (_, sql)) in MIGRATIONS.iter().enumerate().take(19) {
        apply(conn.sqlite_mut().unwrap(), sql, index as i64 + 1, false).unwrap();
    }
    let product = |id: i64, farmer: i64, status: &str, text: &str| {
        format!(
            "INSERT INTO products (id, uid, farmer_id, title, description, category, unit, quantity, price_cents,
                current_price_cents, status, search_text, version, created_at, updated_at)
             VALUES ({id}, 'u{id}', {farmer}, 't', 'd', 'fruits', 'kg', 1, 1, 1, '{status}', '{text}', {id}, 't', 't');"
        )
    };
    conn.execute_batch(&format!(
        "INSERT INTO users (id, email, password_hash, first_name, last_name, role, status, created_at, updated_at)
            VALUES (1, 'a@x.cd', 'h', 'A', 'Y', 'farmer', 'active', 't', 't'),
                   (2, 'b@x.cd', 'h', 'B', 'Y', 'farmer', 'inactive', 't', 't');
         {}{}{}",
        product(1, 1, "active", "mangoes from kalehe"),
        product(2, 1, "inactive", "mango juice"),
        product(3, 2, "active", "mangoes of an inactive farmer"),
    ))
    .unwrap();
    migrate(&mut conn).unwrap();
    let listed = |conn: &Connection| -> Vec<i64> {
        let mut stmt = conn.prepare("SELECT id FROM products WHERE listed = 1 ORDER BY id").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(listed(&conn), [1]);
    let found = |conn: &Connection, word: &str| -> Vec<i64> {
        let mut stmt =
            conn.prepare("SELECT rowid FROM products_search WHERE products_search MATCH ?1 ORDER BY rowid").unwrap();
        stmt.query_map([word], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(found(&conn, "\"ango\""), [1, 2, 3]);
    // The farmer's status, the product's status and its text are followed from now on.
    conn.execute_batch(
        "UPDATE users SET status = 'active' WHERE id = 2;
         UPDATE products SET status = 'active' WHERE id = 2;
         UPDATE products SET search_text = 'passion fruit' WHERE id = 1;
         UPDATE users SET role = 'user' WHERE id = 1;",
    )
    .unwrap();
    assert_eq!(listed(&conn), [3]);
    assert_eq!(found(&conn, "\"ango\""), [2, 3]);
    assert_eq!(found(&conn, "\"passion\""), [1]);
}

/// 0015 rebuilds `payments`, which `payment_events` points at: an older
/// database's payments and their history come through whole.
#[test]
fn rebuilding_payments_keeps_an_older_database_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = connect(&dir.path().join(DB_FILE)).unwrap();
    for (index, (_, sql)) in MIGRATIONS.iter().enumerate().take(14) {
        apply(conn.sqlite_mut().unwrap(), sql, index as i64 + 1, false).unwrap();
    }
    conn.execute_batch(
        "INSERT INTO users (id, email, password_hash, first_name, last_name, created_at, updated_at)
            VALUES (7, 'b@x.cd', 'h', 'B', 'Y', 't', 't');
         INSERT INTO orders (id, uid, buyer_id, subtotal_cents, shipping_cents, total_cents, payment_method,
                delivery, first_name, last_name, email, phone, address, city, postal_code, country, version,
                created_at, updated_at)
            VALUES (3, 'o', 7, 500, 0, 500, 'mobile_money', 'pickup', 'B', 'Y', 'b@x.cd', '1', 'a', 'c', '', 'DRC',
                1, 't', 't');
         INSERT INTO payments (id, uid, order_id, provider, operator, phone, amount_cents, currency, status,
                next_check_at, expires_at, created_at, updated_at)
            VALUES (9, 'p', 3, 'simulator', 'AIRTEL_COD', '243990000001', 500, 'USD', 'succeeded', 't', 't', 't', 't');
         INSERT INTO payment_events (payment_id, status, source, at) VALUES (9, 'succeeded', 'callback', 't');",
    )
    .unwrap();
    migrate(&mut conn).unwrap();
    let (payer, order, course): (i64, Option<i64>, Option<i64>) = conn
        .query_row("SELECT payer_id, order_id, course_id FROM payments WHERE uid = 'p'", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!((payer, order, course), (7, Some(3), None));
    let events: i64 = conn
        .query_row("SELECT COUNT(*) FROM payment_events e JOIN payments p ON p.id = e.payment_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(events, 1);
    let keys_on: i64 = conn.sqlite().unwrap().pragma_query_value(None, "foreign_keys", |r| r.get(0)).unwrap();
    assert_eq!(keys_on, 1, "foreign keys are on again after the rebuild");
    // A payment is for an order or a course, never both or neither.
    let neither = conn.execute(
        "INSERT INTO payments (uid, payer_id, provider, operator, phone, amount_cents, currency, status,
                next_check_at, expires_at, created_at, updated_at)
            VALUES ('q', 7, 's', 'o', '1', 1, 'USD', 'pending', 't', 't', 't', 't')",
        [],
    );
    assert!(neither.is_err());
}

/// 0026 rebuilds `users` so an email is optional: accounts, their sessions and the
/// products' listed flags come through; numbers two live accounts shared stay with
/// both, marked, while every other number becomes unique.
#[test]
fn rebuilding_users_keeps_accounts_and_marks_shared_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = connect(&dir.path().join(DB_FILE)).unwrap();
    for (index, (_, sql)) in MIGRATIONS.iter().enumerate().take(25) {
        apply(conn.sqlite_mut().unwrap(), sql, index as i64 + 1, false).unwrap();
    }
    conn.execute_batch(
        "INSERT INTO users (id, email, password_hash, first_name, last_name, phone_number, role, status, created_at,
                            updated_at, deleted_at)
            VALUES (1, 'a@x.cd', 'h', 'A', 'Y', '+243990000001', 'farmer', 'active', 't', 't', NULL),
                   (2, 'b@x.cd', 'h', 'B', 'Y', '+243990000001', 'user', 'active', 't', 't', NULL),
                   (3, 'c@x.cd', 'h', 'C', 'Y', '+243990000002', 'user', 'active', 't', 't', NULL),
                   (4, 'deleted-4@invalid', '!', '', '', '+243990000002', 'user', 'inactive', 't', 't', 't');
         INSERT INTO sessions (jti, user_id, created_at, expires_at) VALUES ('s', 2, 't', 't');
         INSERT INTO products (id, uid, farmer_id, title, description, category, unit, quantity, price_cents,
                               current_price_cents, status, search_text, version, created_at, updated_at)
            VALUES (1, 'p', 1, 't', 'd', 'fruits', 'kg', 1, 1, 1, 'active', 'mango', 1, 't', 't');",
    )
    .unwrap();
    migrate(&mut conn).unwrap();
    let shared: Vec<(i64, bool)> = conn
        .prepare("SELECT id, phone_shared FROM users ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(shared, [(1, true), (2, true), (3, false), (4, false)]);
    let session: i64 = conn.query_row("SELECT user_id FROM sessions", [], |r| r.get(0)).unwrap();
    assert_eq!(session, 2);
    let keys_on: i64 = conn.sqlite().unwrap().pragma_query_value(None, "foreign_keys", |r| r.get(0)).unwrap();
    assert_eq!(keys_on, 1);
    // The listed flag still follows the farmer, through the triggers made again.
    let listed =
        |conn: &Connection| -> bool { conn.query_row("SELECT listed FROM products", [], |r| r.get(0)).unwrap() };
    assert!(listed(&conn));
    conn.execute_batch("UPDATE users SET status = 'inactive' WHERE id = 1").unwrap();
    assert!(!listed(&conn));
    // A phone-only account; a free number is unique from now on; an account needs one or the other.
    let insert = |conn: &Connection, email: Option<&str>, phone: Option<&str>| {
        conn.execute(
            "INSERT INTO users (email, password_hash, first_name, last_name, phone_number, created_at, updated_at)
             VALUES (?1, 'h', 'N', 'B', ?2, 't', 't')",
            crate::db::params![email, phone],
        )
    };
    insert(&conn, None, Some("+243990000003")).unwrap();
    assert!(users::is_unique_violation(&insert(&conn, None, Some("+243990000003")).unwrap_err()));
    assert!(users::is_unique_violation(&insert(&conn, None, Some("+243990000002")).unwrap_err()));
    assert!(insert(&conn, None, None).is_err());
}

/// 0031 rebuilds `earnings` to learn the `fee` kind: older entries come through,
/// and an order placed before it carries no fee.
#[test]
fn rebuilding_earnings_keeps_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = connect(&dir.path().join(DB_FILE)).unwrap();
    for (index, (_, sql)) in MIGRATIONS.iter().enumerate().take(30) {
        apply(conn.sqlite_mut().unwrap(), sql, index as i64 + 1, false).unwrap();
    }
    conn.execute_batch(
        "INSERT INTO users (id, email, password_hash, first_name, last_name, created_at, updated_at)
            VALUES (7, 'f@x.cd', 'h', 'F', 'Y', 't', 't');
         INSERT INTO orders (id, uid, buyer_id, subtotal_cents, shipping_cents, total_cents, payment_method,
                delivery, first_name, last_name, email, phone, address, city, postal_code, country, version,
                created_at, updated_at)
            VALUES (3, 'o', 7, 500, 0, 500, 'cash_on_delivery', 'pickup', 'F', 'Y', 'f@x.cd', '1', 'a', 'c', '',
                'DRC', 1, 't', 't');
         INSERT INTO order_parts (id, order_id, farmer_id, status, subtotal_cents, shipping_cents, created_at, updated_at)
            VALUES (4, 3, 7, 'delivered', 500, 0, 't', 't');
         INSERT INTO earnings (farmer_id, order_id, part_id, kind, amount_cents, currency, at)
            VALUES (7, 3, 4, 'sale', 500, 'USD', 't');",
    )
    .unwrap();
    migrate(&mut conn).unwrap();
    let kept: (String, i64) = conn
        .query_row("SELECT kind, amount_cents FROM earnings WHERE part_id = 4", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!(kept, ("sale".to_owned(), 500));
    let fee: i64 = conn.query_row("SELECT platform_fee_bp FROM orders WHERE id = 3", [], |r| r.get(0)).unwrap();
    assert_eq!(fee, 0);
    conn.execute("INSERT INTO earnings (farmer_id, order_id, part_id, kind, amount_cents, currency, at) VALUES (7, 3, 4, 'fee', -13, 'USD', 't')", []).unwrap();
}

/// 0036 gives order lines the product's names in each language: a line placed before
/// takes the names of its product while the product's title is still the line's, and
/// none once the product was renamed (its names may no longer be what was bought).
#[test]
fn older_order_lines_take_their_product_s_names_unless_it_was_renamed() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = connect(&dir.path().join(DB_FILE)).unwrap();
    for (index, (_, sql)) in MIGRATIONS.iter().enumerate().take(35) {
        apply(conn.sqlite_mut().unwrap(), sql, index as i64 + 1, false).unwrap();
    }
    conn.execute_batch(
        "INSERT INTO users (id, email, password_hash, first_name, last_name, role, created_at, updated_at)
            VALUES (7, 'f@x.cd', 'h', 'F', 'Y', 'farmer', 't', 't');
         INSERT INTO products (id, uid, farmer_id, title, title_fr, title_sw, description, category, unit, quantity,
                price_cents, current_price_cents, status, search_text, version, created_at, updated_at)
            VALUES (1, 'u1', 7, 'Beans', 'Haricots', 'Maharage', 'd', 'vegetables', 'kg', 1, 1, 1, 'active', '', 1,
                    't', 't'),
                   (2, 'u2', 7, 'Red onions', 'Oignons rouges', NULL, 'd', 'vegetables', 'kg', 1, 1, 1, 'active', '',
                    2, 't', 't');
         INSERT INTO orders (id, uid, buyer_id, subtotal_cents, shipping_cents, total_cents, payment_method,
                delivery, first_name, last_name, email, phone, address, city, postal_code, country, version,
                created_at, updated_at)
            VALUES (3, 'o', 7, 2, 0, 2, 'cash_on_delivery', 'pickup', 'F', 'Y', 'f@x.cd', '1', 'a', 'c', '',
                'DRC', 1, 't', 't');
         INSERT INTO order_parts (id, order_id, farmer_id, status, subtotal_cents, shipping_cents, created_at, updated_at)
            VALUES (4, 3, 7, 'processing', 2, 0, 't', 't');
         INSERT INTO order_lines (part_id, product_id, title, unit, quantity, unit_price_cents, line_total_cents)
            VALUES (4, 1, 'Beans', 'kg', 1, 1, 1), (4, 2, 'Onions', 'kg', 1, 1, 1);",
    )
    .unwrap();
    migrate(&mut conn).unwrap();
    let mut stmt = conn.prepare("SELECT title_en, title_fr, title_sw FROM order_lines ORDER BY id").unwrap();
    let names: Vec<(Option<String>, Option<String>, Option<String>)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
    assert_eq!(names, [(None, Some("Haricots".into()), Some("Maharage".into())), (None, None, None)]);
}
