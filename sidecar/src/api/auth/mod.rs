//! The administrator's sign-in and sessions. Passwords are argon2id hashes,
//! checked at most a few at a time; attempts are throttled per account and client before any
//! hashing starts; sessions are random tokens whose hashes are kept. Handlers that need the
//! administrator take the [`Admin`] extractor, and those that change something take
//! [`AdminChange`]. Both refuse a request that a browser says comes from elsewhere than the
//! panel's own origin (`ADMIN_ORIGIN`): another site, or the public site beside it.

pub mod account;
pub mod factors;
pub mod login;
pub mod passkeys;
pub mod sign_in;

pub use accounts::{hashing, password, sessions, throttle, totp};

use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/auth/login", web::post().to(login::login))
        .route("/api/auth/session", web::get().to(login::session))
        .route("/api/auth/logout", web::post().to(login::logout))
        .configure(factors::configure)
        .configure(passkeys::configure)
        .configure(account::configure);
}
