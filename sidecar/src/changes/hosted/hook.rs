//! The hosted repository's hooks as git runs them (`sidecar pre-receive`, `sidecar
//! post-receive`): each reads what git gives it and asks the running server through its
//! socket ([`super::listen`]), then prints the server's answer on standard error, which git
//! shows in the editor's terminal (`remote: …`). A push the server's own sync makes (not over
//! HTTP) is its own: the hooks let it through without asking.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::ExitCode;

use contentsync::receive::{Push, Update, Verdict};
use serde::{Deserialize, Serialize};

/// Where the hook finds the server.
#[derive(Debug, Clone, clap::Args)]
pub struct HookArgs {
    /// `DATA_DIR`: the server's socket is there.
    #[arg(long)]
    pub data_dir: PathBuf,
}

/// What a hook asks the server.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "hook", rename_all = "kebab-case")]
pub enum Question {
    /// May this push be taken?
    PreReceive(Push),
    /// The branch moved for the push `id`: is it live?
    PostReceive { id: String },
}

/// The variable the server gives each `git http-backend` it starts: which request a push
/// came with.
pub const PUSH_ID: &str = "SIDECAR_PUSH_ID";

const UNREACHABLE: &str = "Serwer strony nie odpowiada, więc zmian nie przyjęto. Spróbuj ponownie za chwilę; jeśli to się powtarza, daj znać administratorowi.";

/// Whether the push came over HTTP (an editor's), not from the server's own sync.
fn from_an_editor() -> bool {
    std::env::var_os("GIT_PROJECT_ROOT").is_some()
}

/// Asks the server `question` and reads its verdict.
fn ask(args: &HookArgs, question: &Question) -> std::io::Result<Verdict> {
    let mut stream = UnixStream::connect(super::socket(&args.data_dir))?;
    let mut line = serde_json::to_vec(question).map_err(std::io::Error::other)?;
    line.push(b'\n');
    stream.write_all(&line)?;
    let mut answer = String::new();
    BufReader::new(stream).read_line(&mut answer)?;
    serde_json::from_str(&answer).map_err(std::io::Error::other)
}

fn print(lines: &[String]) {
    for line in lines {
        eprintln!("{line}");
    }
}

/// `sidecar pre-receive`: the push is taken, or refused with every problem.
pub fn pre_receive(args: &HookArgs) -> ExitCode {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("Nie udało się odczytać zmian: {e}");
        return ExitCode::FAILURE;
    }
    if !from_an_editor() {
        return ExitCode::SUCCESS;
    }
    eprintln!("Sprawdzanie zmian…");
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let push = Push {
        id: env(PUSH_ID).unwrap_or_default(),
        updates: Update::parse(&input),
        objects: env("GIT_OBJECT_DIRECTORY").map(PathBuf::from),
        alternates: env("GIT_ALTERNATE_OBJECT_DIRECTORIES"),
        pusher: env("REMOTE_USER").unwrap_or_default(),
    };
    match ask(args, &Question::PreReceive(push)) {
        Ok(verdict) => {
            print(&verdict.lines);
            match verdict.taken {
                true => ExitCode::SUCCESS,
                false => ExitCode::FAILURE,
            }
        }
        Err(e) => {
            eprintln!("{UNREACHABLE} ({e})");
            ExitCode::FAILURE
        }
    }
}

/// `sidecar post-receive`: says the change is live once the server published it.
pub fn post_receive(args: &HookArgs) -> ExitCode {
    let mut input = String::new();
    let _ = std::io::stdin().read_to_string(&mut input);
    if !from_an_editor() {
        return ExitCode::SUCCESS;
    }
    let id = std::env::var(PUSH_ID).unwrap_or_default();
    match ask(args, &Question::PostReceive { id }) {
        Ok(verdict) => print(&verdict.lines),
        Err(e) => eprintln!("Zmiany są w repozytorium, ale serwer strony nie potwierdził publikacji ({e}). Sprawdź stronę za chwilę."),
    }
    ExitCode::SUCCESS
}
