use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

const USAGE: &str =
    "usage: sidecar                        serve the site (see README for the environment)
       sidecar add-account EMAIL      add an account; its password is asked for (or read from standard input)
       sidecar set-password EMAIL     give an existing account a new password
       sidecar delete-account EMAIL   delete an account and sign out its sessions
       sidecar backup DIR             copy the database (while serving) and content/ into the new folder DIR, with a manifest
       sidecar restore DIR            check the backup in DIR and restore it (refused while a server uses DATA_DIR)";

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

fn account_command(command: &str, email: &str) -> Result<(), sidecar::Error> {
    let config = sidecar::Config::from_env()?;
    let db = sidecar::db::Db::open(&config.data_dir.join("site.sqlite3"))?.accounts();
    use accounts::password;
    match command {
        "add-account" => password::add_account(&db, email, &read_password()?)?,
        "set-password" => password::set_password(&db, email, &read_password()?)?,
        _ => password::delete_account(&db, email)?,
    }
    println!("{command}: {email}: done");
    Ok(())
}

fn backup_command(command: &str, dir: &str) -> Result<(), sidecar::Error> {
    let config = sidecar::Config::from_env()?;
    let dir = std::path::Path::new(dir);
    let manifest = match command {
        "backup" => sidecar::backup::backup(&config, dir)?,
        _ => sidecar::backup::restore(&config, dir)?,
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

/// Serves the site. A secret in the environment makes this process execute itself again
/// first, before any thread starts, without it (see `sidecar::config::secrets`).
fn serve() -> Result<(), sidecar::Error> {
    let secrets = sidecar::config::secrets::take()?;
    let config = sidecar::Config::with_secrets(&secrets)?;
    actix_web::rt::System::new().block_on(sidecar::run(config))
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        [] => serve(),
        [command @ ("set-password" | "add-account" | "delete-account"), email] => {
            account_command(command, email)
        }
        [command @ ("backup" | "restore"), dir] => backup_command(command, dir),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
