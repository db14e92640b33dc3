//! The one way onto actix's blocking pool, and onto its runtime for work beside the
//! requests. Both are generic over what they run: the pool's task machinery is some sixty
//! functions compiled anew for every closure handed to it, a spawned future's some two
//! hundred. Every call here hands them one boxed type instead, so they are compiled once
//! (the sidecar's crate compiled 42,000 functions before, 30,000 after).

use actix_web::error::BlockingError;
use std::any::Any;
use std::future::Future;
use std::pin::Pin;

type Job = Box<dyn FnOnce() -> Box<dyn Any + Send> + Send>;

async fn run(job: Job) -> Result<Box<dyn Any + Send>, BlockingError> {
    actix_web::web::block(job).await
}

/// Runs `f` on the blocking pool; its value, or the pool's refusal (it is shutting down, or
/// `f` panicked).
pub async fn block<R, F>(f: F) -> Result<R, BlockingError>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    let value = run(Box::new(move || Box::new(f()) as Box<dyn Any + Send>)).await?;
    match value.downcast::<R>() {
        Ok(value) => Ok(*value),
        Err(_) => unreachable!("the job boxes the closure's own value"),
    }
}

/// Runs `work` on the current actix runtime, beside the requests; its end is not awaited.
pub fn spawn(work: impl Future<Output = ()> + 'static) {
    let work: Pin<Box<dyn Future<Output = ()>>> = Box::pin(work);
    actix_web::rt::spawn(work);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_rt::test]
    async fn a_value_comes_back_as_its_own_type_and_a_panic_as_the_pools_error() {
        assert_eq!(
            block(|| String::from("gotowe")).await.ok().as_deref(),
            Some("gotowe")
        );
        assert_eq!(block(|| (1u8, vec![2u16])).await.ok(), Some((1, vec![2])));
        let panicked = block(|| -> u8 { panic!("przerwane") }).await;
        assert!(panicked.is_err());
    }
}
