//! Wake-ups per scope (docs/sync.md, Listening). Every write moves the one sync
//! version, but most concern few phones: a person's draft concerns that person's
//! phones, a stock change those that hold the catalogue. A write is sealed with whom it
//! concerns (`Touched`: the public catalogue, the people whose own records it changed),
//! each node keeps the newest version that concerned each audience (`Scopes`), and a
//! listening phone is told only of versions that concern it.

use std::collections::HashMap;

use super::{Connection, Result};

/// Who listens: an app that says nothing of itself (an older one) hears of every
/// change; a signed-out app of the public catalogue's (products, courses, news, rates);
/// a signed-in one also of what changed of its own: its applications (or those it filled
/// for others), favourites, enrolments, orders (bought, sold, or sold for a cooperative
/// it manages) and notifications — what its pull brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Everyone,
    Public,
    Person(i64),
}

/// Whom a write concerns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Touched {
    /// Could not be told (a look that found the version moved, a write of many people's
    /// records): every phone is told.
    pub everyone: bool,
    pub public: bool,
    pub people: Vec<i64>,
}

/// A write that changes more people's records than this concerns everyone (a price
/// alert to every number, a cooperative's statement): their phones are told all the same.
const PEOPLE_PER_WRITE: usize = 400;
/// People whose newest version is kept; past it the memory starts again, and every
/// phone is told once.
const PEOPLE_KEPT: usize = 200_000;

/// Rows that every signed-out phone pulls.
const PUBLIC: &str = "SELECT CASE WHEN EXISTS (SELECT 1 FROM products WHERE version > ?1)
    OR EXISTS (SELECT 1 FROM courses WHERE version > ?1) OR EXISTS (SELECT 1 FROM blogs WHERE version > ?1)
    OR EXISTS (SELECT 1 FROM exchange_rates WHERE version > ?1) THEN 1 ELSE 0 END";

/// The people whose pull has rows changed after ?1 (as `domain::sync::read_page` reads them),
/// each with the number of its part. Run inside every write, so each part reads at most
/// ?2 rows after ?1 in version order: by the version index on both engines whatever the
/// statistics say (PostgreSQL without them, as after a bulk load, estimated a third of
/// each table and read 40,000 rows of applications for one push), and the same at a
/// thousand rows as at a million. A part that reached ?2 may hide people past it: the
/// write then concerns everyone (`since`). Parts under `UNION ALL`, not `UNION` (which
/// SQLite plans as a merge reading every table in person order); the managers' part
/// joined from the order outwards (`CROSS JOIN` fixes SQLite's order).
/// `the_wake_up_query_reads_by_version_at_any_size` and tests/api/growth.rs hold this.
const PEOPLE: &str = "SELECT 1, id FROM (SELECT user_id AS id FROM surveys WHERE version > ?1 ORDER BY version LIMIT ?2) AS part1
    UNION ALL SELECT 2, id FROM (SELECT created_by AS id FROM surveys WHERE version > ?1 ORDER BY version LIMIT ?2) AS part2
    UNION ALL SELECT 3, id FROM (SELECT user_id AS id FROM favourites WHERE version > ?1 ORDER BY version LIMIT ?2) AS part3
    UNION ALL SELECT 4, id FROM (SELECT user_id AS id FROM enrolments WHERE version > ?1 ORDER BY version LIMIT ?2) AS part4
    UNION ALL SELECT 5, id FROM (SELECT user_id AS id FROM notifications WHERE version > ?1 ORDER BY version LIMIT ?2) AS part5
    UNION ALL SELECT 6, id FROM (SELECT buyer_id AS id FROM orders WHERE version > ?1 ORDER BY version LIMIT ?2) AS part6
    UNION ALL SELECT 7, id FROM (SELECT p.farmer_id AS id FROM orders o CROSS JOIN order_parts p
        WHERE o.version > ?1 AND p.order_id = o.id ORDER BY o.version LIMIT ?2) AS part7
    UNION ALL SELECT 8, id FROM (SELECT m.user_id AS id FROM orders o CROSS JOIN order_parts p CROSS JOIN cooperatives c
        CROSS JOIN cooperative_members m
        WHERE o.version > ?1 AND p.order_id = o.id AND c.seller_id = p.farmer_id AND m.cooperative_id = c.id
        AND m.role = 'manager' AND m.status = 'active' ORDER BY o.version LIMIT ?2) AS part8";

impl Touched {
    pub(super) fn everyone() -> Touched {
        Touched { everyone: true, ..Touched::default() }
    }

    /// What the rows changed after `since` concern, read in the writing transaction.
    pub(super) fn since(tx: &Connection, since: i64) -> Result<Touched> {
        let public: i64 = tx.prepare_cached(PUBLIC)?.query_row([since], |row| row.get(0))?;
        let limit = PEOPLE_PER_WRITE as i64 + 1;
        let rows: Vec<(i64, Option<i64>)> = tx
            .prepare_cached(PEOPLE)?
            .query_map([since, limit], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<_>>()?;
        let mut per_part = std::collections::HashMap::new();
        for (part, _) in &rows {
            *per_part.entry(*part).or_insert(0) += 1;
        }
        let mut people: Vec<i64> = rows.into_iter().filter_map(|(_, id)| id).collect();
        if per_part.values().any(|&n| n >= limit) {
            return Ok(Touched::everyone());
        }
        people.sort_unstable();
        people.dedup();
        if people.len() > PEOPLE_PER_WRITE {
            return Ok(Touched::everyone());
        }
        Ok(Touched { everyone: false, public: public == 1, people })
    }

    /// As a notification carries it: `*`, or `p` when public, then `:` and the people.
    pub(super) fn payload(&self) -> String {
        if self.everyone {
            return "*".to_owned();
        }
        let people: Vec<String> = self.people.iter().map(i64::to_string).collect();
        format!("{}:{}", if self.public { "p" } else { "" }, people.join(","))
    }

    /// Read back from a notification; `None` when it is not one.
    pub(super) fn parse(text: &str) -> Option<Touched> {
        if text == "*" {
            return Some(Touched::everyone());
        }
        let (flags, ids) = text.split_once(':')?;
        let public = match flags {
            "p" => true,
            "" => false,
            _ => return None,
        };
        let people = match ids {
            "" => Vec::new(),
            ids => ids.split(',').map(|id| id.parse().ok()).collect::<Option<Vec<i64>>>()?,
        };
        (people.len() <= PEOPLE_PER_WRITE).then_some(Touched { everyone: false, public, people })
    }
}

/// The newest version that concerned each audience, on this node.
#[derive(Debug, Default)]
pub(super) struct Scopes {
    everyone: i64,
    public: i64,
    people: HashMap<i64, i64>,
}

impl Scopes {
    /// A node starts knowing nothing of what concerned whom: a phone listening from a
    /// cursor before `version` is told of it once.
    pub(super) fn starting_at(version: i64) -> Scopes {
        Scopes { everyone: version, ..Scopes::default() }
    }

    /// Records that `version` concerned `touched`, in whatever order versions come (a
    /// node's own write can be announced after another node's newer one); whether an
    /// audience's newest version rose.
    pub(super) fn record(&mut self, version: i64, touched: &Touched) -> bool {
        if touched.everyone {
            let rose = version > self.everyone;
            self.everyone = self.everyone.max(version);
            let everyone = self.everyone;
            self.people.retain(|_, newest| *newest > everyone);
            return rose;
        }
        if version <= self.everyone {
            return false;
        }
        if self.people.len() + touched.people.len() > PEOPLE_KEPT {
            // Past what is kept: every phone is told up to the newest, once.
            let newest = self.people.values().copied().fold(version, i64::max);
            self.people.clear();
            return self.record(newest, &Touched::everyone());
        }
        let mut rose = false;
        let mut raise = |newest: &mut i64| {
            rose |= version > *newest;
            *newest = (*newest).max(version);
        };
        if touched.public {
            raise(&mut self.public);
        }
        for person in &touched.people {
            raise(self.people.entry(*person).or_default());
        }
        rose
    }

    /// The newest version that concerns `audience`; `global` is the sync version now.
    pub(super) fn newest_for(&self, audience: Audience, global: i64) -> i64 {
        let shared = self.everyone.max(self.public);
        match audience {
            Audience::Everyone => global,
            Audience::Public => shared,
            Audience::Person(id) => shared.max(self.people.get(&id).copied().unwrap_or(0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_reads_back_and_nothing_else_does() {
        for touched in [
            Touched::everyone(),
            Touched { everyone: false, public: true, people: vec![] },
            Touched { everyone: false, public: false, people: vec![3, 12] },
            Touched { everyone: false, public: true, people: vec![7] },
            Touched::default(),
        ] {
            assert_eq!(Touched::parse(&touched.payload()), Some(touched.clone()), "{touched:?}");
        }
        for bad in ["", "x:", "p", "p:1,,2", ":a", "**", "p:1;2"] {
            assert_eq!(Touched::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn each_audience_hears_what_concerns_it() {
        let mut scopes = Scopes::starting_at(10);
        scopes.record(11, &Touched { everyone: false, public: false, people: vec![1] });
        scopes.record(12, &Touched { everyone: false, public: true, people: vec![] });
        scopes.record(13, &Touched { everyone: false, public: false, people: vec![2] });
        assert_eq!(scopes.newest_for(Audience::Everyone, 13), 13);
        assert_eq!(scopes.newest_for(Audience::Public, 13), 12);
        assert_eq!(scopes.newest_for(Audience::Person(1), 13), 12, "the catalogue's change after its own");
        assert_eq!(scopes.newest_for(Audience::Person(2), 13), 13);
        assert_eq!(scopes.newest_for(Audience::Person(3), 13), 12);
        scopes.record(14, &Touched::everyone());
        assert_eq!(scopes.newest_for(Audience::Person(3), 14), 14);
        assert_eq!(scopes.newest_for(Audience::Public, 14), 14);
    }

    #[test]
    fn a_write_recorded_after_a_newer_one_still_reaches_its_people() {
        let mut scopes = Scopes::starting_at(10);
        assert!(scopes.record(12, &Touched { everyone: false, public: false, people: vec![1] }));
        assert!(scopes.record(11, &Touched { everyone: false, public: false, people: vec![2] }), "raised person 2");
        assert_eq!(scopes.newest_for(Audience::Person(2), 12), 11);
        assert!(!scopes.record(11, &Touched { everyone: false, public: false, people: vec![2] }), "heard again");
        // A change to everyone found late keeps a person's newer one.
        assert!(scopes.record(11, &Touched::everyone()));
        assert_eq!(scopes.newest_for(Audience::Person(1), 12), 12);
        assert_eq!(scopes.newest_for(Audience::Person(2), 12), 11);
        assert!(!scopes.record(9, &Touched::everyone()));
        assert!(!scopes.record(11, &Touched { everyone: false, public: true, people: vec![3] }), "all were told");
    }
}

#[cfg(test)]
mod plans {
    use crate::db::{DB_FILE, connect, migrate};

    /// How SQLite reads `sql` with `?1` and `?2` bound: one line a step.
    fn plan_of(sql: &str) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = connect(&dir.path().join(DB_FILE)).unwrap();
        migrate(&mut conn).unwrap();
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let params: &[i64] = if sql.contains("?2") { &[0, 401] } else { &[0] };
        let params = crate::db::params_from_iter(params.iter());
        stmt.query_map(params, |r| r.get::<_, String>(3)).unwrap().collect::<Result<_, _>>().unwrap()
    }

    /// Run inside every write: each table is searched by an index (the version's, or a
    /// key reached from a row found by version), none scanned nor indexed on the spot.
    /// The server runs no ANALYZE, so SQLite plans the same at any size: a plan read on
    /// an empty database is the one at a million rows. (The old `UNION ... LIMIT` was a
    /// merge scanning surveys, enrolments, notifications and orders by person.)
    #[test]
    fn the_wake_up_query_reads_by_version_at_any_size() {
        for sql in [super::PEOPLE, super::PUBLIC] {
            let plan = plan_of(sql);
            let table_steps: Vec<&String> =
                plan.iter().filter(|step| step.starts_with("SCAN") || step.starts_with("SEARCH")).collect();
            assert!(!table_steps.is_empty(), "{plan:?}");
            for step in table_steps {
                let whole_table = step.starts_with("SCAN")
                    && !["SCAN (subquery", "SCAN part", "SCAN CONSTANT ROW"].iter().any(|not| step.starts_with(not));
                assert!(!whole_table && !step.contains("AUTOMATIC"), "{step} in {plan:#?}");
            }
            assert!(!plan.iter().any(|step| step.contains("MERGE")), "{plan:#?}");
            for table in ["surveys", "favourites", "enrolments", "notifications", "orders"] {
                let by_version =
                    plan.iter().any(|s| s.starts_with(&format!("SEARCH {table} ")) && s.contains("(version>?)"));
                assert!(by_version || !sql.contains(table), "{table} not read by version: {plan:#?}");
            }
        }
    }
}

#[cfg(test)]
mod limits {
    use super::Touched;
    use crate::db::{DB_FILE, connect, migrate};

    #[test]
    fn a_part_past_its_limit_concerns_everyone() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = connect(&dir.path().join(DB_FILE)).unwrap();
        migrate(&mut conn).unwrap();
        conn.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
        let notify = |versions: std::ops::RangeInclusive<i64>, user: i64| {
            for n in versions {
                let sql = format!(
                    "INSERT INTO notifications (uid, user_id, kind, link, version, created_at) \
                     VALUES ('n{n}', {user}, 'k', '/', {n}, 'now')"
                );
                conn.execute_batch(&sql).unwrap();
            }
        };
        notify(1..=10, 1);
        assert_eq!(Touched::since(&conn, 0).unwrap(), Touched { everyone: false, public: false, people: vec![1] });
        // 401 of person 1's rows, then one of person 2's, past what the part reads.
        notify(11..=401, 1);
        notify(402..=402, 2);
        assert!(Touched::since(&conn, 0).unwrap().everyone, "person 2 may be past the part's limit");
        let last = Touched::since(&conn, 400).unwrap();
        assert_eq!(last, Touched { everyone: false, public: false, people: vec![1, 2] });
    }
}
