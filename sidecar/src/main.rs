use std::io::BufRead;
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

const USAGE: &str =
    "usage: sidecar                      serve the site (see README for the environment)
       sidecar set-password EMAIL   set a new password read from standard input
       sidecar add-account EMAIL    add an account with a password read from standard input";

/// `set-password` and `add-account`: the password comes from standard input, never argv.
fn account_command(command: &str, email: &str) -> Result<(), sidecar::Error> {
    let config = sidecar::Config::from_env()?;
    let db = sidecar::db::Db::open(&config.data_dir.join("site.sqlite3"))?;
    let mut password = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut password)
        .map_err(|e| sidecar::Error::Auth(format!("cannot read the password: {e}")))?;
    sidecar::auth::set_password(&db, email, password.trim_end_matches(['\r', '\n']))?;
    println!("{command}: {email} has a new password");
    Ok(())
}

#[actix_web::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => match sidecar::Config::from_env() {
            Ok(config) => sidecar::run(config).await,
            Err(e) => Err(e),
        },
        [command @ ("set-password" | "add-account"), email] => account_command(command, email),
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
