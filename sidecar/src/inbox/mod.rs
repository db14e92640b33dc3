//! Contact messages: the form's rules (`rules`, shared with the form in the browser), its
//! tokens against bots (`token`), the one writer that stores them (`writer`) and the outbox
//! that delivers every stored message (`outbox`).

pub mod contact;
pub mod outbox;
pub mod rules;
pub mod token;
pub mod writer;
