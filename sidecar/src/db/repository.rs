//! How a handler reaches a store whose calls block on SQLite: on the blocking pool, never on
//! an HTTP worker.

use actix_web::error::BlockingError;
use std::future::Future;
use std::sync::Arc;

use super::store::Db;
use crate::error::ApiError;

/// A store whose calls block on SQLite (cheap to clone: it shares one connection). Each
/// method makes one call `f` on actix's blocking pool with a clone of the store.
pub trait Repository: Clone + Send + 'static {
    /// The call's result as it is, or the pool's refusal: for a caller that meets a failure
    /// its own way (work beside a request that only logs it, or an answer of its own).
    fn blocking<R, F>(&self, f: F) -> impl Future<Output = Result<R, BlockingError>>
    where
        F: FnOnce(&Self) -> R + Send + 'static,
        R: Send + 'static,
    {
        let this = self.clone();
        crate::tasks::block(move || f(&this))
    }

    /// The call's result for a request: its error and the pool's become the request's
    /// [`ApiError`] as `?` would make them (the stores' errors: a server error, logged with
    /// its cause).
    fn run<R, E, F>(&self, f: F) -> impl Future<Output = Result<R, ApiError>>
    where
        F: FnOnce(&Self) -> Result<R, E> + Send + 'static,
        R: Send + 'static,
        E: Send + 'static,
        ApiError: From<E>,
    {
        let call = self.blocking(f);
        async move { call.await?.map_err(ApiError::from) }
    }
}

/// The sidecar's tables: messages, revisions, drafts, conflicts, uploads, settings.
impl Repository for Arc<Db> {}

/// The accounts' tables: accounts, sessions, second factors, passkeys, the audit log.
#[cfg(feature = "panel")]
impl Repository for accounts::Store {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing;
    use crate::error::Error;
    use actix_web::http::StatusCode;

    #[actix_rt::test]
    async fn a_call_answers_with_its_value_or_a_server_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = Arc::new(testing::db(&dir));
        let count = db.run(|db| db.count("pending")).await;
        assert_eq!(count, Ok(0));
        let failed = db
            .run(|_| Err::<(), _>(Error::Backup("no room".into())))
            .await;
        assert_eq!(
            failed.map_err(|e| e.status),
            Err(StatusCode::INTERNAL_SERVER_ERROR)
        );
    }
}
