//! How many sign-in attempts a client gets. Failures are counted per (account, client) and
//! per client, never per account alone: a stranger who guesses the admin's e-mail slows down
//! only their own attempts, and the admin signing in from anywhere else is not refused.
//! Beyond a few free failures the wait doubles with each one instead of locking for good.
//!
//! Codes (the app's, recovery and reset codes) are guessed by someone who already has the
//! password or the address, possibly from many addresses at once: a waiting sign-in takes at
//! most [`CODES_PER_SIGN_IN`] wrong codes, and the account's wrong codes from anywhere are
//! counted too — past [`FREE_CODES_PER_ACCOUNT`] every code waits, wherever it comes from.

use crate::store::LoginCounts;

/// Failures are forgotten after this long.
pub const WINDOW_SECONDS: i64 = 15 * 60;
/// Failures of one account from one client before waits begin.
pub const FREE_PER_ACCOUNT: i64 = 5;
/// Failures from one client, whatever the account, before waits begin.
pub const FREE_PER_CLIENT: i64 = 10;
/// The first wait; each further failure doubles it, up to the window.
pub const FIRST_WAIT_SECONDS: i64 = 30;
/// Wrong codes one waiting sign-in may have: then it is dropped, and the password asked again.
pub const CODES_PER_SIGN_IN: i64 = 5;
/// Wrong codes of one account, from any address, before every code of it waits.
pub const FREE_CODES_PER_ACCOUNT: i64 = 10;

fn wait(failures: i64, free: i64, last: i64, now: i64) -> i64 {
    if failures < free {
        return 0;
    }
    let doublings = u32::try_from(failures - free).unwrap_or(u32::MAX).min(16);
    let delay = (FIRST_WAIT_SECONDS << doublings).min(WINDOW_SECONDS);
    (last + delay - now).max(0)
}

/// The seconds this attempt must wait, if it must.
pub fn decide(counts: LoginCounts, now: i64) -> Option<i64> {
    let longest = wait(counts.pair, FREE_PER_ACCOUNT, counts.pair_last, now).max(wait(
        counts.client,
        FREE_PER_CLIENT,
        counts.client_last,
        now,
    ));
    (longest > 0).then_some(longest)
}

/// The seconds any code of an account with `failures` wrong codes in the window, the last at
/// `last`, must wait, if it must.
pub fn decide_codes(failures: i64, last: i64, now: i64) -> Option<i64> {
    let wait = wait(failures, FREE_CODES_PER_ACCOUNT, last, now);
    (wait > 0).then_some(wait)
}

/// The seconds a client must wait whatever account it names: the longest wait of any
/// account it tried, or its own. Known before its sign-in's body is read.
pub fn decide_client(counts: &[LoginCounts], now: i64) -> Option<i64> {
    counts.iter().filter_map(|c| decide(*c, now)).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pair: i64, client: i64, last: i64) -> LoginCounts {
        LoginCounts {
            pair,
            pair_last: last,
            client,
            client_last: last,
        }
    }

    #[test]
    fn a_few_failures_are_free_then_waits_double() {
        assert_eq!(decide(counts(4, 4, 1000), 1000), None);
        assert_eq!(decide(counts(5, 5, 1000), 1000), Some(30));
        assert_eq!(decide(counts(5, 5, 1000), 1030), None, "waited enough");
        assert_eq!(decide(counts(6, 6, 1000), 1000), Some(60));
        assert_eq!(
            decide(counts(20, 20, 1000), 1000),
            Some(WINDOW_SECONDS),
            "capped"
        );
    }

    #[test]
    fn an_accounts_codes_wait_after_wrong_ones_from_anywhere() {
        assert_eq!(decide_codes(FREE_CODES_PER_ACCOUNT - 1, 1000, 1000), None);
        assert_eq!(decide_codes(FREE_CODES_PER_ACCOUNT, 1000, 1000), Some(30));
        assert_eq!(
            decide_codes(FREE_CODES_PER_ACCOUNT + 1, 1000, 1010),
            Some(50)
        );
    }

    #[test]
    fn a_busy_client_waits_whatever_account_it_tries() {
        assert_eq!(decide(counts(0, 10, 1000), 1000), Some(30));
    }

    #[test]
    fn a_client_waiting_for_one_account_waits_before_naming_any() {
        let fresh = counts(0, 5, 1000);
        assert_eq!(decide_client(&[fresh], 1000), None);
        assert_eq!(
            decide_client(&[counts(1, 6, 1000), counts(5, 6, 1000)], 1000),
            Some(30)
        );
    }
}
