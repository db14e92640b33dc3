//! The content repository's HTTP side: the forge's webhook (public), the panel's view of
//! where the repository stands, and the hosted repository (`GIT_HOSTED`): git over HTTP on
//! the panel's origin and its access tokens.

pub mod http;
pub mod panel;
pub mod tokens;
pub mod webhook;
