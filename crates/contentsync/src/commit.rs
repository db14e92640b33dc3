//! A change from the panel as a git commit in `content/`, authored by the administrator, with
//! a message that says what changed. Paths are handed to git relative to where it runs, so a
//! relative `content/` (the default) commits the very file that changed.

use std::path::Path;

use crate::repo::run;

/// Commits `file` (written, or removed) in the repository `content_dir` is in, as
/// `Administrator <author>`; a warning in Polish when it could not.
pub fn commit_file(content_dir: &Path, file: &Path, author: &str, message: &str) -> Option<String> {
    if run(content_dir, &["rev-parse", "--is-inside-work-tree"]).is_err() {
        return Some("CONTENT_GIT_COMMIT=1, ale content/ nie jest repozytorium git: zmian nie zapisano w historii git.".into());
    }
    // git runs in `content_dir`: the file's path from there, whatever the server's own
    // working folder is.
    let file = file
        .strip_prefix(content_dir)
        .unwrap_or(file)
        .to_string_lossy();
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
