//! The content's git repository: the commands the sidecar runs in it, each with hooks,
//! fsmonitor, signing and filter programs switched off ([`subprocess::git_without_filters`]).

use std::path::{Path, PathBuf};

use crate::error::Error;

/// The work tree holding `content/`, and where `content/` sits in it.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The top of the work tree.
    pub top: PathBuf,
    /// `content/`'s path inside it, with a final `/` (`content/`), or empty when `content/`
    /// is the top.
    pub prefix: String,
}

/// `git ARGS` in `dir`: its standard output without the final line ending, or what it said
/// on standard error.
pub fn run(dir: &Path, args: &[&str]) -> Result<String, Error> {
    run_with_input(dir, args, None)
}

/// As [`run`], with `input` on git's standard input (a patch for `git apply -`).
pub fn run_with_input(dir: &Path, args: &[&str], input: Option<&[u8]>) -> Result<String, Error> {
    use std::io::Write;
    use std::process::Stdio;
    let failed = |e: std::io::Error| Error::Git(format!("git {}: {e}", args.join(" ")));
    let mut child = subprocess::git_without_filters(dir)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(failed)?;
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        let bytes = bytes.to_vec();
        // Written beside the reading, so that a large patch never fills both pipes at once.
        std::thread::spawn(move || stdin.write_all(&bytes));
    }
    let output = child.wait_with_output().map_err(failed)?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(Error::Git(format!(
            "git {} in {}: {}",
            args.first().copied().unwrap_or_default(),
            dir.display(),
            said.trim()
        )));
    }
    let out = String::from_utf8_lossy(&output.stdout);
    Ok(out.trim_end_matches(['\n', '\r']).to_string())
}

impl Repo {
    /// The work tree `content_dir` is in.
    pub fn open(content_dir: &Path) -> Result<Self, Error> {
        let top = run(content_dir, &["rev-parse", "--show-toplevel"]).map_err(|e| {
            Error::Git(format!(
                "{} is not in a git work tree (clone the site's repository there): {e}",
                content_dir.display()
            ))
        })?;
        let prefix = run(content_dir, &["rev-parse", "--show-prefix"])?;
        // Absolute, so that every path handed to git means the same folder wherever git runs.
        let top = std::path::absolute(&top).map_err(|e| Error::Git(format!("{top}: {e}")))?;
        Ok(Repo { top, prefix })
    }

    /// `file` (a path of the running site, relative to the server's working folder or
    /// absolute) as the repository names it, from its top (`content/blog/x.md`); `None` when
    /// it is not inside `content_dir`.
    pub fn path_of(&self, content_dir: &Path, file: &Path) -> Option<String> {
        let content_dir = std::path::absolute(content_dir).ok()?;
        let file = std::path::absolute(file).ok()?;
        let inside = file.strip_prefix(&content_dir).ok()?;
        let inside = inside.to_str()?;
        Some(format!("{}{inside}", self.prefix))
    }

    pub fn git(&self, args: &[&str]) -> Result<String, Error> {
        run(&self.top, args)
    }

    /// The commit `rev` names, or `None` when it names none.
    pub fn commit_of(&self, rev: &str) -> Option<String> {
        let spec = format!("{rev}^{{commit}}");
        self.git(&["rev-parse", "-q", "--verify", &spec]).ok()
    }

    /// The blob `file` (a repository path) is at `commit`, or `None` when it has none.
    pub fn commit_of_path(&self, commit: &str, file: &str) -> Option<String> {
        let spec = format!("{commit}:{file}");
        self.git(&["rev-parse", "-q", "--verify", &spec]).ok()
    }

    pub fn is_ancestor(&self, older: &str, newer: &str) -> bool {
        self.git(&["merge-base", "--is-ancestor", older, newer])
            .is_ok()
    }

    /// The files that differ between two commits, relative to the top (NUL-separated, so
    /// that git never quotes a name with letters outside ASCII).
    pub fn changed_files(&self, from: &str, to: &str) -> Result<Vec<String>, Error> {
        let names = self.git(&["diff", "--name-only", "-z", "--no-renames", from, to])?;
        Ok(names
            .split('\0')
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect())
    }

    /// Whether a file (relative to the top) is inside `content/`.
    pub fn in_content(&self, file: &str) -> bool {
        file.starts_with(&self.prefix)
    }

    /// How many commits `to` has that `from` has not (all of `to`'s without `from`).
    pub fn count_between(&self, from: Option<&str>, to: &str) -> usize {
        let range = match from {
            Some(from) => format!("{from}..{to}"),
            None => to.to_string(),
        };
        self.git(&["rev-list", "--count", &range])
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }

    /// A commit's author, `Name <e-mail>`.
    pub fn author_of(&self, commit: &str) -> String {
        self.git(&["log", "-1", "--format=%an <%ae>", commit])
            .unwrap_or_default()
    }

    /// The e-mail of the author of `commit`, as git has it (empty when unknown).
    pub fn email_of(&self, commit: &str) -> String {
        self.git(&["log", "-1", "--format=%ae", commit])
            .unwrap_or_default()
    }
}

/// A remote that is a folder of this machine, made absolute against the server's working
/// folder (git runs elsewhere, at the top of the work tree); a URL (`https://…`,
/// `user@host:path`) as it is.
pub fn absolute_remote(url: &str) -> String {
    let local = !url.contains("://") && !url.split('/').next().is_some_and(|h| h.contains(':'));
    match local {
        true => std::path::absolute(url)
            .map_or_else(|_| url.to_string(), |p| p.to_string_lossy().into_owned()),
        false => url.to_string(),
    }
}

/// `url` without the credentials a URL may carry (`https://user:token@host/…`), for messages.
pub fn without_credentials(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_inclusive(char::is_whitespace) {
        match word.split_once("://") {
            Some((scheme, rest)) if rest.split('/').next().is_some_and(|a| a.contains('@')) => {
                let after = rest.split_once('@').map_or(rest, |(_, a)| a);
                out.push_str(scheme);
                out.push_str("://");
                out.push_str(after);
            }
            _ => out.push_str(word),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_never_reach_a_message() {
        assert_eq!(
            without_credentials(
                "fatal: unable to access 'https://jan:tajne@git.example.pl/strona.git/': 403"
            ),
            "fatal: unable to access 'https://git.example.pl/strona.git/': 403"
        );
        assert_eq!(
            without_credentials("https://git.example.pl/strona.git odrzucone"),
            "https://git.example.pl/strona.git odrzucone"
        );
    }
}
