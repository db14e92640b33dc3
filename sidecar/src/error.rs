//! The one error type of the sidecar.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("configuration {name}: {message}")]
    Config { name: &'static str, message: String },
    #[error("accounts: {0}")]
    Auth(String),
    #[error("database: {0}")]
    Database(String),
    #[error("the site could not be built: {0}")]
    Build(#[from] generator::Error),
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: String,
        source: std::io::Error,
    },
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
}
