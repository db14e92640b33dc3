//! The audit log's events of the sidecar's domains, beside the account's
//! (`accounts::audit::Account`): the inbox, the content's changes, the content's repository
//! and the server. Each keeps the name the log has always stored, with the Polish words the
//! panel's legend shows ([`all`], generated for the panel's TypeScript).

pub use accounts::audit::{Account, Event};
use accounts::audit_events;

audit_events! {
    /// What the administrator does with the contact messages.
    Inbox {
        InboxViewed = "inbox_viewed", "Przegląd wiadomości";
        MessageOpened = "message_opened", "Otwarcie wiadomości";
        MessageReleased = "message_released", "Zwolnienie z kwarantanny";
        MessageRetried = "message_retried", "Ponowna wysyłka wiadomości";
        MessageDeleted = "message_deleted", "Usunięcie wiadomości";
        MessagesExported = "messages_exported", "Eksport wiadomości osoby";
        MessagesErased = "messages_erased", "Usunięcie wszystkich wiadomości osoby";
    }
}

audit_events! {
    /// A change of the content from the panel: each kind of change its own event, written by
    /// `changes::apply` (images by their upload and removal).
    Content {
        FactsChanged = "facts_changed", "Zmiana danych gabinetu";
        PricesChanged = "prices_changed", "Zmiana cennika";
        WordsChanged = "words_changed", "Zmiana napisów strony";
        PageSaved = "page_saved", "Zmiana strony";
        ServiceSaved = "service_saved", "Zmiana opisu usługi";
        ArticleSaved = "article_saved", "Zmiana artykułu";
        ArticleCreated = "article_created", "Nowy artykuł";
        ArticleDeleted = "article_deleted", "Usunięcie artykułu";
        ArticleUndeleted = "article_undeleted", "Przywrócenie usuniętego artykułu";
        ProfileSaved = "profile_saved", "Zmiana profilu terapeuty";
        ProfileAdded = "profile_added", "Dodanie terapeuty do zespołu";
        ProfileRemoved = "profile_removed", "Usunięcie terapeuty z zespołu";
        TeamReordered = "team_reordered", "Zmiana kolejności zespołu";
        VersionRestored = "version_restored", "Przywrócenie wersji z historii";
        RestoreUndone = "restore_undone", "Cofnięcie przywrócenia wersji";
        ImageUploaded = "image_uploaded", "Przesłanie obrazu";
        ImageDeleted = "image_deleted", "Usunięcie obrazu";
    }
}

audit_events! {
    /// The content's repository: editors' commits, the forge's webhook, access by git.
    Git {
        GitApplied = "git_applied", "Zmiana z repozytorium opublikowana";
        GitRefused = "git_refused", "Zmiana z repozytorium odrzucona";
        GitForcePush = "git_force_push", "Nadpisana historia repozytorium odrzucona";
        WebhookRefused = "webhook_refused", "Odrzucone powiadomienie repozytorium";
        GitTokenCreated = "git_token_created", "Nowy token dostępu przez git";
        GitTokenRevoked = "git_token_revoked", "Unieważnienie tokenu dostępu przez git";
        GitTokenRefused = "git_token_refused", "Odrzucony token dostępu przez git";
        GitPushed = "git_pushed", "Zmiany wysłane przez git (token)";
    }
}

audit_events! {
    /// What the server does by itself or for its operator: metrics, backups.
    Server {
        MetricsTokenRefused = "metrics_token_refused", "Odrzucony token metryk";
        BackupMade = "backup_made", "Kopia zapasowa";
        BackupRestored = "backup_restored", "Odtworzenie kopii zapasowej";
    }
}

/// Every event of every domain, in the order the panel's legend lists them.
pub fn all() -> Vec<Event> {
    let account = Account::ALL.iter().map(|&e| Event::from(e));
    let inbox = Inbox::ALL.iter().map(|&e| Event::from(e));
    let content = Content::ALL.iter().map(|&e| Event::from(e));
    let git = Git::ALL.iter().map(|&e| Event::from(e));
    let server = Server::ALL.iter().map(|&e| Event::from(e));
    account
        .chain(inbox)
        .chain(content)
        .chain(git)
        .chain(server)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_of_every_domain_has_its_own_name_and_polish_words() {
        let events = all();
        let mut names: Vec<&str> = events.iter().map(|e| e.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), events.len(), "a name is used twice");
        for event in &events {
            assert!(!event.label().is_empty() && event.label() != event.name());
        }
        let mut labels: Vec<&str> = events.iter().map(|e| e.label()).collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(
            labels.len(),
            events.len(),
            "two events read the same in the panel"
        );
    }

    #[test]
    fn the_names_of_rows_already_stored_stay() {
        assert_eq!(Content::FactsChanged.name(), "facts_changed");
        assert_eq!(Content::ImageUploaded.name(), "image_uploaded");
        assert_eq!(Inbox::MessagesErased.name(), "messages_erased");
        assert_eq!(Git::GitApplied.name(), "git_applied");
        assert_eq!(Server::BackupMade.name(), "backup_made");
    }
}
