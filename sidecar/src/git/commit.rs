//! A change from the panel as a git commit in `content/`, authored by the administrator, with
//! a message that says what changed.

use std::path::Path;

use crate::db::Action;
use crate::git::repo::run;
use crate::AppState;

/// What a commit of the panel says it did to `doc_id`.
pub fn message(action: Action, doc_id: &str) -> String {
    match action {
        Action::Save => format!("Edycja strony {doc_id} w panelu administracyjnym"),
        Action::Create => format!("Nowy dokument {doc_id} z panelu administracyjnego"),
        Action::Delete => format!("Usunięcie dokumentu {doc_id} w panelu administracyjnym"),
        Action::Restore => format!("Przywrócenie dokumentu {doc_id} w panelu administracyjnym"),
    }
}

/// Commits `file` (written, or removed) in the repository `content_dir` is in, as
/// `Administrator <author>`; a warning in Polish when it could not.
pub fn commit_file(content_dir: &Path, file: &Path, author: &str, message: &str) -> Option<String> {
    if run(content_dir, &["rev-parse", "--is-inside-work-tree"]).is_err() {
        return Some("CONTENT_GIT_COMMIT=1, ale content/ nie jest repozytorium git: zmian nie zapisano w historii git.".into());
    }
    let file = file.to_string_lossy();
    let author_arg = format!("--author=Administrator <{author}>");
    let identity = format!("user.email={author}");
    let committed = run(content_dir, &["add", "--all", "--", &file]).and_then(|_| {
        run(
            content_dir,
            &[
                "-c",
                "user.name=Administrator",
                "-c",
                &identity,
                "commit",
                "-q",
                &author_arg,
                "-m",
                message,
                "--",
                &file,
            ],
        )
    });
    match committed {
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(error = %e, "a change from the panel was not committed");
            Some("Zmiany zapisano, ale nie udało się ich zatwierdzić w git.".to_string())
        }
    }
}

/// Commits a change the panel made to `file` when `CONTENT_GIT_COMMIT` or `GIT_REMOTE` asks
/// for it, and has the sync thread push it; a warning in Polish when it could not. The
/// caller holds the build lock ([`crate::site::SiteState::builder`]): the sync thread applies
/// editors' commits under it, so it never sees a change written but not committed.
pub fn record(state: &AppState, file: &Path, author: &str, message: &str) -> Option<String> {
    if !state.site.content_git_commit && state.git.is_none() {
        return None;
    }
    let warning = commit_file(&state.site.project.content_dir, file, author, message);
    if let (None, Some(git)) = (&warning, &state.git) {
        git.committed();
    }
    warning
}
