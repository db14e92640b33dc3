//! The server's side of the hosted repository's hooks: a Unix socket in `DATA_DIR` (private
//! to the server's user, as the folder is), one question per connection, each answered on a
//! thread of its own — a pre-receive's thread then holds the branch until its push is
//! published ([`contentsync::receive::check`]).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use contentsync::receive::{self, Verdict};
use contentsync::{GitSync, Site};

use super::hook::Question;
use crate::error::Error;

/// The longest question a hook sends (a push's few lines and folders).
const MAX_QUESTION: u64 = 64 * 1024;

/// Binds the socket at `path` (one left by an earlier run is removed first) and answers the
/// hooks on a thread of its own.
pub fn spawn(
    git: Arc<GitSync>,
    site: Arc<dyn Site>,
    bare: &Path,
    path: &Path,
) -> Result<(), Error> {
    let failed = |e: std::io::Error| Error::Config {
        name: "GIT_HOSTED".into(),
        message: format!("{}: {e}", path.display()),
    };
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket()) {
        std::fs::remove_file(path).map_err(failed)?;
    }
    let listener = UnixListener::bind(path).map_err(failed)?;
    let bare = bare.to_path_buf();
    std::thread::Builder::new()
        .name("git-hooks".into())
        .spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (git, site, bare) = (Arc::clone(&git), Arc::clone(&site), bare.clone());
                let answered = std::thread::Builder::new()
                    .name("git-receive".into())
                    .spawn(move || answer(&git, site.as_ref(), &bare, stream));
                if let Err(e) = answered {
                    tracing::error!(error = %e, "a git hook's question was not answered");
                }
            }
        })
        .map_err(failed)?;
    Ok(())
}

fn write(mut stream: &UnixStream, verdict: &Verdict) {
    let mut line = serde_json::to_vec(verdict).unwrap_or_default();
    line.push(b'\n');
    if let Err(e) = stream.write_all(&line) {
        tracing::warn!(error = %e, "a git hook left before its answer");
    }
}

/// Reads one question from `stream` and answers it.
fn answer(git: &GitSync, site: &dyn Site, bare: &Path, stream: UnixStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut line = String::new();
    let read = BufReader::new(std::io::Read::take(&stream, MAX_QUESTION)).read_line(&mut line);
    let question = read
        .ok()
        .and_then(|_| serde_json::from_str::<Question>(&line).ok());
    match question {
        Some(Question::PreReceive(push)) => {
            let hosted = receive::Hosted { bare };
            receive::check(site, git, &hosted, &push, |verdict| {
                write(&stream, &verdict)
            });
        }
        Some(Question::PostReceive { id }) => {
            let lines = git.moved(&id);
            write(&stream, &Verdict { taken: true, lines });
        }
        None => tracing::warn!("a git hook asked something the server does not know"),
    }
}
