//! The sidecar's errors: [`Error`] says what failed and where (start-up, accounts, the
//! database, a build), and [`ApiError`] is the answer a request gets, with a Polish title
//! and message that the panel and the form show as they are.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use content::problem::Place;
use serde::Serialize;
use ts_rs::TS;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("configuration {name}: {message}")]
    Config {
        name: std::borrow::Cow<'static, str>,
        message: String,
    },
    #[cfg(feature = "panel")]
    #[error("accounts: {0}")]
    Accounts(#[from] accounts::Error),
    #[error("database: {0}")]
    Database(#[from] database::Error),
    #[error("the site could not be built: {0}")]
    Build(#[from] site::Error),
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: String,
        source: std::io::Error,
    },
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
    #[error("cannot start a writer thread (contact messages, statistics): {0}")]
    Writer(std::io::Error),
    #[error("backup: {0}")]
    Backup(String),
    #[error("cannot read the password: {0}")]
    Password(std::io::Error),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[cfg(feature = "panel")]
    #[error("git: {0}")]
    Git(#[from] contentsync::Error),
}

/// The answer to a request that did not succeed: `{ "title": …, "error": … }`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status} {title}: {message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub title: String,
    pub message: String,
    /// Seconds after which a refused request may be tried again.
    pub retry_after: Option<u64>,
    /// Field errors of a form, by field name.
    pub fields: Option<Box<serde_json::Value>>,
    /// What the panel must do before trying again (`reauth`: confirm who you are).
    pub code: Option<ErrorCode>,
    /// The problems of a refused change, each with where it is.
    pub problems: Vec<Place>,
}

/// A body over its route's limit.
pub const TOO_LARGE: &str = "Przesłane dane są zbyt duże.";
const SERVER_ERROR: &str = "Wystąpił błąd serwera. Spróbuj ponownie za chwilę.";

impl ApiError {
    pub fn new(status: StatusCode, title: &str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            title: title.to_string(),
            message: message.into(),
            retry_after: None,
            fields: None,
            code: None,
            problems: Vec::new(),
        }
    }

    /// A refusal with the generic title "Błąd".
    pub fn status(status: StatusCode, message: impl Into<String>) -> Self {
        Self::new(status, "Błąd", message)
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::status(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::status(StatusCode::NOT_FOUND, message)
    }

    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::status(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    pub fn too_many(title: &str, message: impl Into<String>, retry_after: u64) -> Self {
        ApiError {
            retry_after: Some(retry_after.max(1)),
            ..Self::new(StatusCode::TOO_MANY_REQUESTS, title, message)
        }
    }

    pub fn with_code(mut self, code: ErrorCode) -> Self {
        self.code = Some(code);
        self
    }

    /// The refusal of a change with its problems, each with where it is (the panel marks the
    /// first it can place).
    pub fn with_problems(mut self, problems: Vec<Place>) -> Self {
        self.problems = problems;
        self
    }

    pub fn with_fields(mut self, fields: serde_json::Value) -> Self {
        self.fields = Some(Box::new(fields));
        self
    }

    /// A failure of the server itself: logged with its cause, answered without it.
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "request failed");
        Self::status(StatusCode::INTERNAL_SERVER_ERROR, SERVER_ERROR)
    }
}

/// What a refusal asks the panel to do, beside its Polish words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The session ended (idle, or signed out): sign in again.
    SignedOut,
    /// Signed out from another device ('Wyloguj wszędzie').
    SignedOutElsewhere,
    /// Confirm who you are (password, and the app's code) and try again.
    Reauth,
    /// The sign-in's second step took too long: start again with the password.
    Expired,
    /// The password was changed (on another device, or reset): sign in with the new one.
    PasswordChanged,
}

/// The body of every refusal: a title and a message in Polish, and a form's field errors.
#[derive(Debug, Serialize, TS)]
pub struct ErrorBody {
    pub title: String,
    pub error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, string>")]
    pub errors: Option<serde_json::Value>,
    /// What the panel must do before trying again: `reauth` (confirm who you are).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code: Option<ErrorCode>,
    /// A refused change's problems, each with where it is: a section, a row or a field.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problems: Option<Vec<Place>>,
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        response.insert_header((header::CACHE_CONTROL, "no-store"));
        if let Some(seconds) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, seconds.to_string()));
        }
        response.json(ErrorBody {
            title: self.title.clone(),
            error: self.message.clone(),
            errors: self.fields.as_deref().cloned(),
            code: self.code,
            problems: (!self.problems.is_empty()).then(|| self.problems.clone()),
        })
    }
}

/// A problem of what the panel sent: refused with 422, in Polish.
impl From<content::Problem> for ApiError {
    fn from(p: content::Problem) -> Self {
        ApiError::unprocessable(p.sentence()).with_problems(vec![p.place()])
    }
}

impl From<content::problem::EditProblem> for ApiError {
    fn from(p: content::problem::EditProblem) -> Self {
        content::Problem::from(p).into()
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError::internal(&e)
    }
}

#[cfg(feature = "panel")]
impl From<accounts::Error> for ApiError {
    fn from(e: accounts::Error) -> Self {
        ApiError::internal(&e)
    }
}

impl From<database::Error> for ApiError {
    fn from(e: database::Error) -> Self {
        ApiError::internal(&e)
    }
}

impl From<site::Error> for ApiError {
    fn from(e: site::Error) -> Self {
        ApiError::internal(&e)
    }
}

#[cfg(feature = "panel")]
impl From<editing::Error> for ApiError {
    fn from(e: editing::Error) -> Self {
        match e {
            editing::Error::Refused(problem) => problem.into(),
            e => ApiError::internal(&e),
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(e: actix_web::error::BlockingError) -> Self {
        ApiError::internal(&e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_carries_its_title_message_and_wait() {
        let e = ApiError::too_many("Błąd logowania", "Spróbuj ponownie za 30 s.", 30);
        let response = e.error_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            response
                .headers()
                .get(header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok()),
            Some("30")
        );
    }
}
