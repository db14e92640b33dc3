//! The audit log's events: each domain names its own (`audit_events!`) with the name the log
//! keeps and the Polish words the panel shows; this crate names the account's ([`Account`]),
//! the sidecar the inbox's, the content's and the server's. All of them are written as an
//! [`Event`]. An entry names what was done and to what (an e-mail address, a message's
//! number), never what a message says.

use crate::store::Store;

/// An event as the log writes it: the name it keeps and what the panel shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    name: &'static str,
    label: &'static str,
}

impl Event {
    pub const fn new(name: &'static str, label: &'static str) -> Self {
        Event { name, label }
    }

    /// The name the log keeps.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// What the panel shows.
    pub fn label(self) -> &'static str {
        self.label
    }
}

/// A domain's events: an enum `$domain` whose variants each have the name the log keeps and
/// the Polish words the panel shows, listed in `$domain::ALL` in the order of the panel's
/// legend, each an [`Event`].
#[macro_export]
macro_rules! audit_events {
    ($(#[$doc:meta])* $domain:ident { $($variant:ident = $name:literal, $label:literal;)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $domain {
            $($variant,)*
        }

        impl $domain {
            /// Every event of the domain, in the order the panel's legend lists them.
            pub const ALL: &[$domain] = &[$($domain::$variant,)*];

            /// The name the log keeps.
            pub fn name(self) -> &'static str {
                $crate::audit::Event::from(self).name()
            }

            /// What the panel shows.
            pub fn label(self) -> &'static str {
                $crate::audit::Event::from(self).label()
            }
        }

        impl From<$domain> for $crate::audit::Event {
            fn from(event: $domain) -> Self {
                match event {
                    $($domain::$variant => $crate::audit::Event::new($name, $label),)*
                }
            }
        }
    };
}

audit_events! {
    /// What happens to the administrator's account: sign-ins, sessions, passwords, second
    /// factors.
    Account {
        SignIn = "sign_in", "Zalogowanie";
        SignInFailed = "sign_in_failed", "Nieudane logowanie";
        SignInRefused = "sign_in_refused", "Logowanie konta bez dostępu";
        SecondFactorNeeded = "second_factor_needed", "Hasło poprawne, oczekiwanie na kod";
        SecondFactorFailed = "second_factor_failed", "Błędny kod z aplikacji";
        CodesThrottled = "codes_throttled", "Zbyt wiele błędnych kodów: kolejne czekają";
        SignOut = "sign_out", "Wylogowanie";
        Reauthenticated = "reauthenticated", "Potwierdzenie tożsamości";
        ReauthFailed = "reauth_failed", "Nieudane potwierdzenie tożsamości";
        SessionEnded = "session_ended", "Zakończenie sesji";
        OtherSessionsEnded = "other_sessions_ended", "Wylogowanie na innych urządzeniach";
        PasswordChanged = "password_changed", "Zmiana hasła";
        ResetRequested = "reset_requested", "Prośba o kod do zmiany hasła";
        PasswordReset = "password_reset", "Nowe hasło ustawione kodem z e-maila";
        ResetFailed = "reset_failed", "Nieudana zmiana hasła kodem";
        TotpEnabled = "totp_enabled", "Włączenie aplikacji uwierzytelniającej";
        TotpDisabled = "totp_disabled", "Wyłączenie aplikacji uwierzytelniającej";
        PasskeyAdded = "passkey_added", "Dodanie klucza dostępu";
        PasskeyRemoved = "passkey_removed", "Usunięcie klucza dostępu";
        RecoveryCodesRenewed = "recovery_codes_renewed", "Nowe kody zapasowe";
    }
}

/// Writes an entry: `actor` is who (an e-mail, as given), `client` where from (an address, or
/// `repozytorium`, `serwer` for what no request asked for), `detail` what to. A failure to
/// write is logged, never the failure of what it describes.
pub fn record(store: &Store, event: impl Into<Event>, actor: &str, client: &str, detail: &str) {
    let event = event.into();
    if let Err(e) = store.record(store.now(), event.name(), actor, client, detail) {
        tracing::error!(error = %e, event = event.name(), "audit log");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_account_event_has_its_own_name_and_polish_words() {
        let mut names: Vec<&str> = Account::ALL.iter().map(|e| e.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Account::ALL.len());
        for event in Account::ALL {
            assert!(!event.label().is_empty() && event.label() != event.name());
        }
        assert_eq!(
            Account::SignIn.name(),
            "sign_in",
            "the names of existing rows stay"
        );
    }
}
