//! Contact messages: the form's rules (`rules`, shared with the form in the browser), its
//! tokens against bots (`token`), the one writer that stores them (`writer`) and the outbox
//! that delivers every stored message (`outbox`); the copy of one person's messages she may ask
//! for (`export`).

pub mod contact;
pub mod export;
pub mod outbox;
pub mod rules;
pub mod token;
pub mod writer;
