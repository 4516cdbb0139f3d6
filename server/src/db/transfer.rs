//! Moving a deployment from SQLite to PostgreSQL (`mavuno migrate-to-postgres`,
//! docs/operations.md, PostgreSQL): every row of every table, ids, versions and sync
//! histories as they are, so phones keep their cursors and nothing is sent twice.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{Connection, Db, Error, Result, Value, params_from_iter};

/// Rows sent to PostgreSQL in one statement.
const ROWS_PER_INSERT: usize = 200;

/// Tables PostgreSQL's first migration fills with starting rows, replaced by the copy's.
const STARTING_ROWS: [&str; 3] = ["sync_state", "price_state", "markets"];

/// Copies the SQLite database of `data_dir` into the empty PostgreSQL database at `url`
/// (migrated first); answers each table with its number of rows, checked on both sides.
/// The server must be stopped: the copy holds SQLite's write lock while it reads.
pub fn sqlite_to_postgres(data_dir: &Path, url: &str) -> Result<Vec<(String, i64)>> {
    let path = data_dir.join(super::DB_FILE);
    if !path.is_file() {
        return Err(Error::Other(format!("no database at {}", path.display())));
    }
    // Brings an older SQLite deployment up to date first, as a start would.
    drop(Db::open(data_dir)?);
    let source = Connection::open(&path)?;
    drop(Db::open_postgres(url, None, 2, None)?);
    let target = Connection::open_url(url)?;

    let tables = in_order(&source)?;
    refuse_unless_empty(&target, &tables)?;
    let reading = source.begin()?;
    let writing = target.begin()?;
    for table in STARTING_ROWS {
        writing.execute(&format!("DELETE FROM {table}"), [])?;
    }
    for table in &tables {
        copy(&reading, &writing, table)?;
    }
    restart_ids(&writing, &tables)?;
    let mut counts = Vec::new();
    for table in &tables {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let (from, to): (i64, i64) =
            (reading.query_row(&sql, [], |r| r.get(0))?, writing.query_row(&sql, [], |r| r.get(0))?);
        if from != to {
            return Err(Error::Other(format!("{table}: {from} rows in SQLite, {to} copied; nothing was kept")));
        }
        counts.push((table.clone(), to));
    }
    writing.commit()?;
    Ok(counts)
}

/// The tables to copy, each after the tables it points at (SQLite's own search tables aside).
fn in_order(source: &Connection) -> Result<Vec<String>> {
    let names: Vec<String> = source
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             AND name NOT LIKE 'products_search%' ORDER BY name",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_>>()?;
    let mut points_at: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for name in &names {
        let targets: BTreeSet<String> = source
            .prepare("SELECT \"table\" FROM pragma_foreign_key_list(?1)")?
            .query_map([name], |r| r.get(0))?
            .collect::<Result<_>>()?;
        points_at.insert(name.clone(), targets.into_iter().filter(|t| t != name).collect());
    }
    let mut ordered = Vec::new();
    while ordered.len() < names.len() {
        let ready: Vec<String> = names
            .iter()
            .filter(|n| !ordered.contains(*n) && points_at[*n].iter().all(|t| ordered.contains(t)))
            .cloned()
            .collect();
        if ready.is_empty() {
            return Err(Error::Other("the tables point at each other in a circle".to_owned()));
        }
        ordered.extend(ready);
    }
    Ok(ordered)
}

/// A second run, or a database in use, is refused: nothing is mixed or overwritten.
fn refuse_unless_empty(target: &Connection, tables: &[String]) -> Result<()> {
    for table in tables.iter().filter(|t| !STARTING_ROWS.contains(&t.as_str())) {
        let rows: i64 = target.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))?;
        if rows > 0 {
            return Err(Error::Other(format!(
                "the PostgreSQL database is not empty ({table} has {rows} rows): nothing was copied. \
                 Give the URL of a new, empty database."
            )));
        }
    }
    Ok(())
}

/// Copies one table's rows, in the order SQLite holds them (sessions keep their order).
fn copy(source: &Connection, target: &Connection, table: &str) -> Result<()> {
    let columns: Vec<String> = source
        .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?
        .query_map([table], |r| r.get(0))?
        .collect::<Result<_>>()?;
    let list = columns.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ");
    let without_rowid: bool =
        source
            .query_row("SELECT wr FROM pragma_table_list WHERE name = ?1 AND schema = 'main'", [table], |r| r.get(0))?;
    let order = if without_rowid { "" } else { " ORDER BY rowid" };
    let mut statement = source.prepare(&format!("SELECT {list} FROM {table}{order}"))?;
    let mut rows = statement.query([])?;
    let mut batch: Vec<Value> = Vec::new();
    let mut count = 0;
    while let Some(row) = rows.next()? {
        for index in 0..columns.len() {
            batch.push(row.get(index)?);
        }
        count += 1;
        if count == ROWS_PER_INSERT {
            insert(target, table, &list, columns.len(), std::mem::take(&mut batch))?;
            count = 0;
        }
    }
    if count > 0 {
        insert(target, table, &list, columns.len(), batch)?;
    }
    Ok(())
}

fn insert(target: &Connection, table: &str, list: &str, width: usize, values: Vec<Value>) -> Result<()> {
    let rows = values.len() / width;
    let marks: Vec<String> = (0..rows)
        .map(|row| {
            let cells: Vec<String> = (1..=width).map(|col| format!("?{}", row * width + col)).collect();
            format!("({})", cells.join(", "))
        })
        .collect();
    target.execute(&format!("INSERT INTO {table} ({list}) VALUES {}", marks.join(", ")), params_from_iter(values))?;
    Ok(())
}

/// New rows continue after the copied ids.
fn restart_ids(target: &Connection, tables: &[String]) -> Result<()> {
    let counted: Vec<String> = target
        .prepare(
            "SELECT table_name FROM information_schema.columns
             WHERE table_schema = 'public' AND column_name = 'id' AND is_identity = 'YES'",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_>>()?;
    for table in tables.iter().filter(|t| counted.contains(t)) {
        target.query_row(
            &format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), GREATEST((SELECT MAX(id) FROM {table}), 1))"
            ),
            [],
            |r| r.get::<_, i64>(0),
        )?;
    }
    Ok(())
}
