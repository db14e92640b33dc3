//! The content repository's HTTP side: the forge's webhook (public) and the panel's view of
//! where the repository stands.

pub mod panel;
pub mod webhook;
