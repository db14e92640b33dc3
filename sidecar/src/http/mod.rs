//! What every request goes through before a handler: the client behind trusted proxies
//! (`client`), the signed-in administrator (`admin`), body deadlines and limits (`body`),
//! the length of a request's target (`target_limit`), connection limits (`connections`),
//! refused credentials by client (`refusals`) and the request log.

pub mod body;
pub mod client;
pub mod connections;
pub mod request_log;
pub mod target_limit;
panel! {
    pub mod admin;
    pub mod refusals;
}
