//! Group commit (docs/sync.md, Push): the writes that arrive while the writer is busy
//! are written together in one transaction, each in a savepoint of its own, so one
//! refused or failed write undoes only itself; after that one commit is on disk, each
//! is answered. A durable commit costs the same for one write as for twenty, so twenty
//! phones pushing at once wait for one disk sync instead of queueing for twenty.
//!
//! The committer is a task of its own: a write whose caller went away (a phone that
//! dropped its connection) is still written at once, not when the next one comes.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Weak};

use crate::db::Connection;
use tokio::sync::{mpsc, oneshot};

use super::Pool;
use crate::error::{ApiResult, AppError};

/// At most this many writes share a commit (one slow group must not hold back the rest).
const GROUP_MAX: usize = 32;

/// Told whether the group's commit is on disk; then answers its caller.
type Answer = Box<dyn FnOnce(Result<(), &crate::db::Error>) + Send>;

/// A write waiting for the group's transaction.
pub(super) trait Job: Send {
    /// Runs in the group's transaction and leaves its answer for after the commit.
    fn run(self: Box<Self>, conn: &Connection) -> Answer;
    /// The transaction could not begin: the caller hears why, its write not made.
    fn refuse(self: Box<Self>, err: &crate::db::Error);
}

/// Starts the committer of `pool`'s writes; it ends once the pool is gone.
pub(super) fn start(pool: Weak<Pool>) -> mpsc::UnboundedSender<Box<dyn Job>> {
    let (sender, mut waiting) = mpsc::unbounded_channel::<Box<dyn Job>>();
    tokio::spawn(async move {
        while let Some(first) = waiting.recv().await {
            let mut jobs = vec![first];
            while jobs.len() < GROUP_MAX {
                match waiting.try_recv() {
                    Ok(job) => jobs.push(job),
                    Err(_) => break,
                }
            }
            let Some(pool) = pool.upgrade() else { return };
            // Taken before a blocking thread is, as every write does.
            let asked = std::time::Instant::now();
            let Ok(_permit) = pool.observed.writer.take(&pool.writer_permit).await else { return };
            pool.observed.write_wait.observe(asked.elapsed().as_secs_f64());
            let for_task = Arc::clone(&pool);
            // The answers go out from the blocking thread: nothing here can fail them.
            tokio::task::spawn_blocking(move || commit(&for_task, jobs)).await.ok();
        }
    });
    sender
}

/// One transaction for `jobs`, then their answers.
fn commit(pool: &Arc<Pool>, jobs: Vec<Box<dyn Job>>) {
    let conn = match pool.take(&pool.writers, true) {
        Ok(conn) => conn,
        Err(err) => return refuse(jobs, &err),
    };
    super::OUTBOX_WRITTEN.set(false);
    let outcome = match conn.begin() {
        Ok(tx) => {
            let answers: Vec<Answer> = jobs.into_iter().map(|job| job.run(&tx)).collect();
            let sealed = super::wakeups::seal(pool, &tx);
            Ok((answers, tx.commit(), sealed))
        }
        Err(err) => Err((jobs, err)),
    };
    let (answers, committed, sealed) = match outcome {
        Ok(done) => done,
        Err((jobs, err)) => {
            Pool::put_back(&pool.writers, conn);
            return refuse(jobs, &err);
        }
    };
    pool.observed.ended(committed.is_ok());
    if committed.is_ok() {
        pool.committed(sealed);
    }
    Pool::put_back(&pool.writers, conn);
    for answer in answers {
        answer(committed.as_ref().map(drop));
    }
}

/// None of them began: each caller hears that its write was not made, and why.
fn refuse(jobs: Vec<Box<dyn Job>>, err: &crate::db::Error) {
    tracing::error!(%err, writes = jobs.len(), "a group of writes could not begin");
    for job in jobs {
        job.refuse(err);
    }
}

/// A caller's write and where its answer goes.
struct Write<T, F> {
    f: F,
    reply: oneshot::Sender<ApiResult<T>>,
}

impl<T, F> Job for Write<T, F>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
{
    /// `f` in a savepoint, its result sent once the commit is known.
    fn run(self: Box<Self>, conn: &Connection) -> Answer {
        let Write { f, reply } = *self;
        let result = savepoint(conn, f);
        Box::new(move |committed| {
            let answer = match committed {
                Ok(()) => result,
                Err(err) => Err(AppError::database(err, "committing a group of writes")),
            };
            // The caller may have gone: its write stands all the same.
            reply.send(answer).ok();
        })
    }

    fn refuse(self: Box<Self>, err: &crate::db::Error) {
        self.reply.send(Err(AppError::database(err, "beginning a group of writes"))).ok();
    }
}

/// The job for `write_together`.
pub(super) fn job<T, F>(f: F, reply: oneshot::Sender<ApiResult<T>>) -> Box<dyn Job>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
{
    Box::new(Write { f, reply })
}

/// Runs `f` in a savepoint of the transaction `conn` is in: kept if it succeeds, undone
/// if it fails or panics (then the rest of the transaction goes on).
pub fn savepoint<T>(conn: &Connection, f: impl FnOnce(&Connection) -> ApiResult<T>) -> ApiResult<T> {
    conn.execute_batch("SAVEPOINT step")?;
    let result = catch_unwind(AssertUnwindSafe(|| f(conn)))
        .unwrap_or_else(|_| Err(AppError::internal("a write panicked; it was undone")));
    match result {
        Ok(value) => {
            conn.execute_batch("RELEASE step")?;
            Ok(value)
        }
        Err(err) => {
            conn.execute_batch("ROLLBACK TO step; RELEASE step")?;
            Err(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::db::Db;
    use crate::error::AppError;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_that_come_together_commit_together_and_fail_alone() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path()).unwrap();
        db.write(|tx| Ok(tx.execute_batch("CREATE TABLE t (n INTEGER NOT NULL)")?)).await.unwrap();
        // Thirty at once: every third fails after writing, one panics after writing.
        let writes: Vec<_> = (0..30)
            .map(|n: i64| {
                let db = db.clone();
                tokio::spawn(async move {
                    db.write_together(move |conn| {
                        conn.execute("INSERT INTO t (n) VALUES (?1)", [n])?;
                        assert_ne!(n, 7, "a bug in one write");
                        if n % 3 == 0 { Err(AppError::bad_request("refused", "no")) } else { Ok(n) }
                    })
                    .await
                })
            })
            .collect();
        let mut answers = Vec::new();
        for write in writes {
            answers.push(write.await.unwrap());
        }
        for (n, answer) in answers.iter().enumerate() {
            match answer {
                Ok(value) => assert!(n % 3 != 0 && n != 7 && *value == n as i64),
                Err(err) => assert!(n % 3 == 0 || (n == 7 && err.code() == "internal_error"), "{n}: {err:?}"),
            }
        }
        let kept: Vec<i64> = db
            .read(|conn| {
                let mut stmt = conn.prepare("SELECT n FROM t ORDER BY n")?;
                Ok(stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?)
            })
            .await
            .unwrap();
        let expected: Vec<i64> = (0..30).filter(|n| n % 3 != 0 && *n != 7).collect();
        assert_eq!(kept, expected, "each failed write undid only itself");
    }
}
