//! The audit log's events: what can happen to the account, the inbox, the content and the
//! server, each with the name the log keeps and the Polish words the panel shows (generated
//! for the panel's TypeScript with the other shared definitions). An entry names what was
//! done and to what (an e-mail address, a message's number), never what a message says.

use crate::store::Store;

macro_rules! events {
    ($($variant:ident = $name:literal, $label:literal;)*) => {
        /// What can happen, as the log names it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Event {
            $($variant,)*
        }

        impl Event {
            /// Every event, in the order the panel's legend lists them.
            pub const ALL: &[Event] = &[$(Event::$variant,)*];

            /// The name the log keeps.
            pub fn name(self) -> &'static str {
                match self {
                    $(Event::$variant => $name,)*
                }
            }

            /// What the panel shows.
            pub fn label(self) -> &'static str {
                match self {
                    $(Event::$variant => $label,)*
                }
            }
        }
    };
}

events! {
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
    InboxViewed = "inbox_viewed", "Przegląd wiadomości";
    MessageOpened = "message_opened", "Otwarcie wiadomości";
    MessageReleased = "message_released", "Zwolnienie z kwarantanny";
    MessageRetried = "message_retried", "Ponowna wysyłka wiadomości";
    MessageDeleted = "message_deleted", "Usunięcie wiadomości";
    MessagesExported = "messages_exported", "Eksport wiadomości osoby";
    MessagesErased = "messages_erased", "Usunięcie wszystkich wiadomości osoby";
    FactsChanged = "facts_changed", "Zmiana danych gabinetu";
    PricesChanged = "prices_changed", "Zmiana cennika";
    ImageUploaded = "image_uploaded", "Przesłanie obrazu";
    ImageDeleted = "image_deleted", "Usunięcie obrazu";
    GitApplied = "git_applied", "Zmiana z repozytorium opublikowana";
    GitRefused = "git_refused", "Zmiana z repozytorium odrzucona";
    GitForcePush = "git_force_push", "Nadpisana historia repozytorium odrzucona";
    WebhookRefused = "webhook_refused", "Odrzucone powiadomienie repozytorium";
    GitTokenCreated = "git_token_created", "Nowy token dostępu przez git";
    GitTokenRevoked = "git_token_revoked", "Unieważnienie tokenu dostępu przez git";
    GitTokenRefused = "git_token_refused", "Odrzucony token dostępu przez git";
    GitPushed = "git_pushed", "Zmiany wysłane przez git (token)";
    MetricsTokenRefused = "metrics_token_refused", "Odrzucony token metryk";
    BackupMade = "backup_made", "Kopia zapasowa";
    BackupRestored = "backup_restored", "Odtworzenie kopii zapasowej";
}

/// Writes an entry: `actor` is who (an e-mail, as given), `client` where from (an address, or
/// `repozytorium`, `serwer` for what no request asked for), `detail` what to. A failure to
/// write is logged, never the failure of what it describes.
pub fn record(store: &Store, event: Event, actor: &str, client: &str, detail: &str) {
    if let Err(e) = store.record(store.now(), event.name(), actor, client, detail) {
        tracing::error!(error = %e, event = event.name(), "audit log");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_its_own_name_and_polish_words() {
        let mut names: Vec<&str> = Event::ALL.iter().map(|e| e.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Event::ALL.len());
        for event in Event::ALL {
            assert!(!event.label().is_empty() && event.label() != event.name());
        }
    }
}
