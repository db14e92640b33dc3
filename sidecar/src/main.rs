use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

use clap::{Parser, Subcommand};

/// The website's server: serves the built site and the admin panel, rebuilding after each
/// change. Without a command it serves; its settings come from the environment (see the
/// operator's guide, docs/src/operators/environment.md).
#[derive(Parser)]
#[command(name = "sidecar", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Add an account; its password is asked for (or read from standard input).
    AddAccount { email: String },
    /// Give an existing account a new password.
    SetPassword { email: String },
    /// Delete an account and sign out its sessions.
    DeleteAccount { email: String },
    /// Copy the database (while serving) and content/ into the new folder DIR, with a
    /// manifest; without DIR, back them up to BACKUP_REPOSITORY now.
    Backup { dir: Option<PathBuf> },
    /// Check the backup in DIR, or the snapshot of BACKUP_REPOSITORY, and restore it
    /// (refused while a server uses DATA_DIR).
    Restore {
        /// A snapshot's id, or `latest`.
        #[arg(long, conflicts_with = "dir", required_unless_present = "dir")]
        snapshot: Option<String>,
        dir: Option<PathBuf>,
    },
    /// The hosted repository's pre-receive hook (`GIT_HOSTED`), as the server writes it:
    /// asks the running server whether to take a push (`old new ref` lines on standard input).
    PreReceive(sidecar::changes::hosted::hook::HookArgs),
    /// The hosted repository's post-receive hook: tells the editor when the change is live.
    PostReceive(sidecar::changes::hosted::hook::HookArgs),
}

/// A password typed at a terminal (not echoed), or one line of standard input.
fn read_password() -> Result<String, sidecar::Error> {
    let failed = sidecar::Error::Password;
    if std::io::stdin().is_terminal() {
        return rpassword::prompt_password("Hasło: ").map_err(failed);
    }
    let mut password = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut password)
        .map_err(failed)?;
    Ok(password.trim_end_matches(['\r', '\n']).to_string())
}

/// Changes the account `email` in the database of `DATA_DIR` with `change`, and says so.
fn account_command(
    command: &str,
    email: &str,
    change: impl FnOnce(&accounts::Store, &str) -> Result<(), sidecar::Error>,
) -> Result<(), sidecar::Error> {
    let config = sidecar::Config::from_env()?;
    let db = sidecar::db::Db::open(&config.data_dir.join("site.sqlite3"))?.accounts();
    change(&db, email)?;
    println!("{command}: {email}: done");
    Ok(())
}

fn backup_command(restore: bool, dir: &Path) -> Result<(), sidecar::Error> {
    let config = sidecar::Config::from_env()?;
    let (command, manifest) = if restore {
        ("restore", sidecar::backup::restore(&config, dir)?)
    } else {
        ("backup", sidecar::backup::backup(&config, dir)?)
    };
    let bytes: u64 = manifest.files.iter().map(|f| f.bytes).sum();
    println!(
        "{command}: {} files, {} KiB, schema version {}, build {} ({})",
        manifest.files.len(),
        bytes / 1024,
        manifest.schema_version,
        manifest.build.as_deref().unwrap_or("-"),
        dir.display()
    );
    Ok(())
}

/// `sidecar backup` without a folder: one backup to the repository, as the schedule runs it.
fn repository_backup() -> Result<(), sidecar::Error> {
    let config = sidecar::Config::from_env()?;
    let done = sidecar::backup::schedule::run_once(&config)?;
    println!(
        "backup: snapshot {}, {} files, {} ms",
        done.snapshot, done.files, done.duration_ms
    );
    Ok(())
}

/// `sidecar restore --snapshot ID`.
fn snapshot_restore(id: &str) -> Result<(), sidecar::Error> {
    let config = sidecar::Config::from_env()?;
    let (snapshot, manifest) = sidecar::backup::schedule::restore_snapshot(&config, id)?;
    println!(
        "restore: snapshot {snapshot}, {} files, schema version {}",
        manifest.files.len(),
        manifest.schema_version
    );
    Ok(())
}

/// Serves the site. A secret in the environment makes this process execute itself again
/// first, before any thread starts, without it (see `sidecar::config::secrets`).
fn serve() -> Result<(), sidecar::Error> {
    let secrets = sidecar::config::secrets::take()?;
    let config = sidecar::Config::with_secrets(&secrets)?;
    actix_web::rt::System::new().block_on(sidecar::run(config))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The hooks' output is the editor's terminal: no log lines there.
    use sidecar::changes::hosted::hook;
    match &cli.command {
        Some(Command::PreReceive(args)) => return hook::pre_receive(args),
        Some(Command::PostReceive(args)) => return hook::post_receive(args),
        _ => {}
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    use accounts::password;
    let result = match cli.command {
        Some(Command::PreReceive(_) | Command::PostReceive(_)) => Ok(()),
        None => serve(),
        Some(Command::AddAccount { email }) => account_command("add-account", &email, |db, e| {
            Ok(password::add_account(db, e, &read_password()?)?)
        }),
        Some(Command::SetPassword { email }) => account_command("set-password", &email, |db, e| {
            Ok(password::set_password(db, e, &read_password()?)?)
        }),
        Some(Command::DeleteAccount { email }) => {
            account_command("delete-account", &email, |db, e| {
                Ok(password::delete_account(db, e)?)
            })
        }
        Some(Command::Backup { dir: Some(dir) }) => backup_command(false, &dir),
        Some(Command::Backup { dir: None }) => repository_backup(),
        Some(Command::Restore { dir: Some(dir), .. }) => backup_command(true, &dir),
        Some(Command::Restore {
            snapshot: Some(id),
            dir: None,
        }) => snapshot_restore(&id),
        Some(Command::Restore { .. }) => Err(sidecar::Error::Backup(
            "name a backup folder or --snapshot ID".into(),
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
