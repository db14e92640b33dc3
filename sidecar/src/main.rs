#[cfg(feature = "panel")]
use std::io::{BufRead, IsTerminal};
#[cfg(feature = "panel")]
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

use clap::Parser;
use sidecar::config::environment::Environment;

/// The website's server: serves the built site and the admin panel, rebuilding after each
/// change. Without a command it serves; its settings come from the environment, or from the
/// flags below, which win (see the operator's guide, docs/src/operators/environment.md).
#[derive(Parser)]
#[command(name = "sidecar", version)]
struct Cli {
    #[cfg(feature = "panel")]
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    environment: Environment,
}

impl Cli {
    /// The command line and the environment; a wrong setting is named as the configuration's
    /// other errors are. `--help` never shows a value of the environment (a mirror's URL may
    /// hold its token).
    fn read() -> Result<Self, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let command = Self::command().mut_args(|arg| arg.hide_env_values(true));
        let matches = command.clone().try_get_matches()?;
        Self::from_arg_matches(&matches)
    }
}

#[cfg(feature = "panel")]
#[derive(clap::Subcommand)]
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

#[cfg(feature = "panel")]
/// The configuration of a command that starts no child: the settings read, and the secrets
/// from the environment or their files.
fn configuration(environment: Environment) -> Result<sidecar::Config, sidecar::Error> {
    let secrets = sidecar::config::secrets::Secrets::gather(|key| std::env::var(key).ok())?;
    sidecar::Config::new(environment, &secrets)
}

#[cfg(feature = "panel")]
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

#[cfg(feature = "panel")]
/// Changes the account `email` in the database of `DATA_DIR` with `change`, and says so.
fn account_command(
    environment: Environment,
    command: &str,
    email: &str,
    change: impl FnOnce(&accounts::Store, &str) -> Result<(), sidecar::Error>,
) -> Result<(), sidecar::Error> {
    let config = configuration(environment)?;
    let db = sidecar::db::Db::open(&config.data_dir.join("site.sqlite3"))?.accounts();
    change(&db, email)?;
    println!("{command}: {email}: done");
    Ok(())
}

#[cfg(feature = "panel")]
fn backup_command(
    environment: Environment,
    restore: bool,
    dir: &Path,
) -> Result<(), sidecar::Error> {
    let config = configuration(environment)?;
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

#[cfg(feature = "panel")]
/// `sidecar backup` without a folder: one backup to the repository, as the schedule runs it.
fn repository_backup(environment: Environment) -> Result<(), sidecar::Error> {
    let config = configuration(environment)?;
    let done = sidecar::backup::schedule::run_once(&config)?;
    println!(
        "backup: snapshot {}, {} files, {} ms",
        done.snapshot, done.files, done.duration_ms
    );
    Ok(())
}

#[cfg(feature = "panel")]
/// `sidecar restore --snapshot ID`.
fn snapshot_restore(environment: Environment, id: &str) -> Result<(), sidecar::Error> {
    let config = configuration(environment)?;
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
fn serve(environment: Environment) -> Result<(), sidecar::Error> {
    let secrets = sidecar::config::secrets::take()?;
    let config = sidecar::Config::new(environment, &secrets)?;
    actix_web::rt::System::new().block_on(sidecar::run(config))
}

fn main() -> ExitCode {
    let cli = match Cli::read() {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
            let named = sidecar::config::environment::refusal(
                &<Cli as clap::CommandFactory>::command(),
                &e,
            );
            eprintln!("error: {named}");
            return ExitCode::FAILURE;
        }
        Err(e) => e.exit(),
    };
    #[cfg(feature = "panel")]
    if let Some(command) = cli.command {
        return run_command(command, cli.environment);
    }
    init_log();
    result(serve(cli.environment))
}

/// Log lines on standard error, as `RUST_LOG` filters them (`info` by default).
fn init_log() {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
}

/// Runs one of the commands beside the server.
#[cfg(feature = "panel")]
fn run_command(command: Command, env: Environment) -> ExitCode {
    // The hooks' output is the editor's terminal: no log lines there.
    use sidecar::changes::hosted::hook;
    match &command {
        Command::PreReceive(args) => return hook::pre_receive(args),
        Command::PostReceive(args) => return hook::post_receive(args),
        _ => {}
    }
    init_log();
    use accounts::password;
    result(match command {
        Command::PreReceive(_) | Command::PostReceive(_) => Ok(()),
        Command::AddAccount { email } => account_command(env, "add-account", &email, |db, e| {
            Ok(password::add_account(db, e, &read_password()?)?)
        }),
        Command::SetPassword { email } => account_command(env, "set-password", &email, |db, e| {
            Ok(password::set_password(db, e, &read_password()?)?)
        }),
        Command::DeleteAccount { email } => {
            account_command(env, "delete-account", &email, |db, e| {
                Ok(password::delete_account(db, e)?)
            })
        }
        Command::Backup { dir: Some(dir) } => backup_command(env, false, &dir),
        Command::Backup { dir: None } => repository_backup(env),
        Command::Restore { dir: Some(dir), .. } => backup_command(env, true, &dir),
        Command::Restore {
            snapshot: Some(id),
            dir: None,
        } => snapshot_restore(env, &id),
        Command::Restore { .. } => Err(sidecar::Error::Backup(
            "name a backup folder or --snapshot ID".into(),
        )),
    })
}

/// The exit code of what ran, its error on standard error.
fn result(result: Result<(), sidecar::Error>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
