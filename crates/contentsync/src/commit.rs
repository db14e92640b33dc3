//! A change from the panel as a git commit in `content/`, authored by the administrator, with
//! a message that says what changed. git runs at the top of the work tree and is handed the
//! file's path from there, whatever the server's working folder and `SITE_ROOT` are.

use std::path::Path;

use crate::repo::{run, Repo};

const NOT_A_REPOSITORY: &str =
    "CONTENT_GIT_COMMIT=1, ale content/ nie jest repozytorium git: zmian nie zapisano w historii git.";
const NOT_COMMITTED: &str = "Zmiany zapisano, ale nie udało się ich zatwierdzić w git.";

/// Commits `file` (written, or removed) in the repository `content_dir` is in, as
/// `Administrator <author>`; a warning in Polish when it could not.
pub fn commit_file(content_dir: &Path, file: &Path, author: &str, message: &str) -> Option<String> {
    let Ok(repo) = Repo::open(content_dir) else {
        return Some(NOT_A_REPOSITORY.into());
    };
    let Some(path) = repo.path_of(content_dir, file) else {
        tracing::warn!(file = %file.display(), "a change from the panel outside content/ was not committed");
        return Some(NOT_COMMITTED.into());
    };
    let author_arg = format!("--author=Administrator <{author}>");
    let identity = format!("user.email={author}");
    let top = repo.top.as_path();
    let committed = run(top, &["add", "--all", "--", &path]).and_then(|_| {
        run(
            top,
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
                &path,
            ],
        )
    });
    match committed {
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(error = %e, "a change from the panel was not committed");
            Some(NOT_COMMITTED.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn git(dir: &Path, args: &[&str]) -> String {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=T", "-c", "user.email=t@example.pl"])
            .args(args)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// `to` written relative to the test's working folder (`../../tmp/…`).
    fn relative(to: &Path) -> PathBuf {
        let here = std::env::current_dir().expect("working folder");
        let up = here.components().count() - 1;
        let mut path: PathBuf = std::iter::repeat_n("..", up).collect();
        path.push(to.strip_prefix("/").expect("absolute"));
        assert!(path.is_relative());
        path
    }

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("content/blog")).expect("mkdir");
        std::fs::write(dir.path().join("content/blog/a.md"), "tekst").expect("write");
        git(dir.path(), &["init", "-q"]);
        git(dir.path(), &["add", "."]);
        git(dir.path(), &["commit", "-q", "-m", "start"]);
        dir
    }

    #[test]
    fn a_save_is_committed_whether_content_is_named_relatively_or_absolutely() {
        let dir = site();
        let absolute = dir.path().join("content");
        for (content_dir, text) in [(relative(&absolute), "pierwsza"), (absolute, "druga")] {
            let file = content_dir.join("blog/a.md");
            std::fs::write(&file, text).expect("write");
            let said = commit_file(&content_dir, &file, "magda@example.pl", text);
            assert_eq!(said, None, "{}", content_dir.display());
            assert_eq!(
                git(dir.path(), &["log", "-1", "--format=%an <%ae>|%s|%H"])
                    .split('|')
                    .take(2)
                    .collect::<Vec<_>>(),
                ["Administrator <magda@example.pl>", text]
            );
            assert_eq!(git(dir.path(), &["status", "--porcelain"]), "");
        }
    }

    #[test]
    fn content_in_a_repository_of_its_own_is_committed_too() {
        let dir = tempfile::tempdir().expect("temp dir");
        let content = dir.path().join("content");
        std::fs::create_dir_all(content.join("blog")).expect("mkdir");
        git(&content, &["init", "-q"]);
        let file = relative(&content).join("blog/b.md");
        std::fs::write(&file, "nowy").expect("write");
        assert_eq!(
            commit_file(&relative(&content), &file, "m@example.pl", "Nowy"),
            None
        );
        assert_eq!(
            git(&content, &["log", "-1", "--name-only", "--format="]),
            "blog/b.md"
        );
    }

    #[test]
    fn a_file_outside_content_or_no_repository_is_said() {
        let dir = site();
        let outside = dir.path().join("notatki.txt");
        std::fs::write(&outside, "x").expect("write");
        assert_eq!(
            commit_file(&dir.path().join("content"), &outside, "m@example.pl", "x").as_deref(),
            Some(NOT_COMMITTED)
        );
        let bare = tempfile::tempdir().expect("temp dir");
        assert_eq!(
            commit_file(bare.path(), &bare.path().join("a.md"), "m@example.pl", "x").as_deref(),
            Some(NOT_A_REPOSITORY)
        );
    }
}
